// Full BFS of the 2x2x2 pocket cube, half-turn metric, corner DBL fixed
// (moves U, U2, U', R, R2, R', F, F2, F' never touch DBL).
// Corner positions (Kociemba order): URF UFL ULB UBR DFR DLF DBL DRB; DBL is dropped, so the
// 7 free positions are URF UFL ULB UBR DFR DLF DRB = 0..6.
// State: 5 bits per position i at bits 5i: low 3 bits = corner cubie (0..6), next 2 = twist (0..2).
// Visited: bitset over rank = Lehmer(7 cubies) * 729 + base-3 twists of positions 0..5 (3,674,160).
// Build: g++ -O2 -march=native -std=c++17 pocket2x2.cpp -o pocket2x2
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

typedef uint64_t u64;
constexpr int N = 7, NMOVES = 9;

struct Move { int cp[8], co[8]; };  // cubie-level move on all 8 corners
// Kociemba's corner cubie moves (URF=0 UFL=1 ULB=2 UBR=3 DFR=4 DLF=5 DBL=6 DRB=7).
static const Move baseU = {{3, 0, 1, 2, 4, 5, 6, 7}, {0, 0, 0, 0, 0, 0, 0, 0}};
static const Move baseR = {{4, 1, 2, 0, 7, 5, 6, 3}, {2, 0, 0, 1, 1, 0, 0, 2}};
static const Move baseF = {{1, 5, 2, 3, 0, 4, 6, 7}, {1, 2, 0, 0, 2, 1, 0, 0}};

// a then b
static Move compose(const Move& a, const Move& b) {
    Move m;
    for (int i = 0; i < 8; i++) {
        m.cp[i] = a.cp[b.cp[i]];
        m.co[i] = (a.co[b.cp[i]] + b.co[i]) % 3;
    }
    return m;
}

static const int to7[8] = {0, 1, 2, 3, 4, 5, -1, 6};
static const int to8[7] = {0, 1, 2, 3, 4, 5, 7};
static int msrc[NMOVES][N], mtw[NMOVES][N];  // new[i] = old[msrc[i]] twisted by mtw[i]

static inline u64 apply(u64 s, int m) {
    u64 t = 0;
    #pragma GCC unroll 16
    for (int i = 0; i < N; i++) {
        u64 v = (s >> (5 * msrc[m][i])) & 31;
        int o = (v >> 3) + mtw[m][i];
        if (o >= 3) o -= 3;
        t |= ((v & 7) | (u64)o << 3) << (5 * i);
    }
    return t;
}

static inline u64 rank_of(u64 s) {
    u64 p = 0, o = 0;
    unsigned seen = 0;
    #pragma GCC unroll 16
    for (int i = 0; i < N; i++) {
        int v = (s >> (5 * i)) & 7;
        p = p * (N - i) + v - __builtin_popcount(seen & ((1u << v) - 1));
        seen |= 1u << v;
        if (i < N - 1) o = o * 3 + ((s >> (5 * i + 3)) & 3);
    }
    return p * 729 + o;
}

static const u64 expected[12] = {1,     9,      54,     321,     1847,   9992,
                                 50136, 227536, 870072, 1887748, 623800, 2644};

int main() {
    auto t0 = std::chrono::steady_clock::now();
    const Move* base[3] = {&baseU, &baseR, &baseF};
    for (int f = 0; f < 3; f++) {
        Move m = *base[f];
        for (int k = 0; k < 3; k++) {  // quarter, half, inverse quarter turn
            int idx = 3 * f + k;
            for (int i = 0; i < N; i++) {
                msrc[idx][i] = to7[m.cp[to8[i]]];
                mtw[idx][i] = m.co[to8[i]];
            }
            m = compose(m, *base[f]);
        }
    }
    const u64 nranks = 5040ull * 729;
    std::vector<u64> bits((nranks + 63) / 64, 0);

    u64 start = 0;  // solved: cubie i at position i, no twist
    for (int i = 0; i < N; i++) start |= (u64)i << (5 * i);
    u64 r0 = rank_of(start);
    bits[r0 >> 6] |= 1ull << (r0 & 63);

    std::vector<u64> cur{start}, next;
    u64 total = 0, layer[12] = {0};
    int depth = 0;
    while (!cur.empty()) {
        printf("depth %2d: %llu\n", depth, (unsigned long long)cur.size());
        if (depth < 12) layer[depth] = cur.size();
        total += cur.size();
        next.clear();
        for (u64 s : cur) {
            for (int m = 0; m < NMOVES; m++) {
                u64 c = apply(s, m);
                u64 r = rank_of(c);
                u64 w = bits[r >> 6], mk = 1ull << (r & 63);
                if (!(w & mk)) {
                    bits[r >> 6] = w | mk;
                    next.push_back(c);
                }
            }
        }
        cur.swap(next);
        depth++;
    }
    double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("total states %llu, layers %d, time %.6f s\n", (unsigned long long)total, depth, sec);
    bool ok = total == 3674160 && depth == 12;
    for (int d = 0; d < depth && ok; d++) ok = layer[d] == expected[d];
    printf("%s\n", ok ? "OK: layer counts match (HTM, 3674160 states)" : "MISMATCH");
    return ok ? 0 : 1;
}
