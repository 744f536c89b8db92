// Full BFS of the 8-puzzle (3x3 sliding puzzle) from the goal state.
// State: 4 bits per cell (cell i at bits 4i, blank = 0), blank position in bits 60..63.
// Visited: bitset over the Lehmer rank of the 9-cell permutation (9! bits).
// Build: g++ -O2 -march=native -std=c++17 sliding3x3.cpp -o sliding3x3
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int W = 3, H = 3, N = W * H;
typedef uint64_t u64;

static int nbr[N][4], nnbr[N];
static const u64 expected[32] = {1,    2,     4,     8,     16,    20,    39,    62,
                                 116,  152,   286,   396,   748,   1024,  1893,  2512,
                                 4485, 5638,  9529,  10878, 16993, 17110, 23952, 20224,
                                 24047, 15578, 14560, 6274, 3910,  760,   221,   2};

static inline int cell(u64 s, int i) { return (s >> (4 * i)) & 15; }
static inline int blank(u64 s) { return s >> 60; }

// Lehmer rank of the permutation held in the N cells (values 0..N-1).
static inline u64 rank_of(u64 s) {
    u64 r = 0;
    unsigned seen = 0;
    #pragma GCC unroll 16
    for (int i = 0; i < N; i++) {
        int v = cell(s, i);
        int d = v - __builtin_popcount(seen & ((1u << v) - 1));
        r = r * (N - i) + d;
        seen |= 1u << v;
    }
    return r;
}

// Slide the tile at cell n into the blank at cell b.
static inline u64 move(u64 s, int b, int n) {
    u64 t = (s >> (4 * n)) & 15;
    s &= ~((u64)15 << (4 * n)) & ~((u64)15 << 60);
    return s | (t << (4 * b)) | ((u64)n << 60);
}

int main() {
    auto t0 = std::chrono::steady_clock::now();
    for (int p = 0; p < N; p++) {
        int x = p % W, y = p / W;
        nnbr[p] = 0;
        if (x > 0) nbr[p][nnbr[p]++] = p - 1;
        if (x < W - 1) nbr[p][nnbr[p]++] = p + 1;
        if (y > 0) nbr[p][nnbr[p]++] = p - W;
        if (y < H - 1) nbr[p][nnbr[p]++] = p + W;
    }
    u64 nperm = 1;
    for (int i = 2; i <= N; i++) nperm *= i;
    std::vector<u64> bits((nperm + 63) / 64, 0);

    u64 goal = (u64)(N - 1) << 60;  // tiles 1..N-1 in row-major order, blank last
    for (int i = 0; i < N - 1; i++) goal |= (u64)(i + 1) << (4 * i);
    u64 r0 = rank_of(goal);
    bits[r0 >> 6] |= 1ull << (r0 & 63);

    std::vector<u64> cur{goal}, next;
    u64 total = 0, layer[32] = {0};
    int depth = 0;
    while (!cur.empty()) {
        printf("depth %2d: %llu\n", depth, (unsigned long long)cur.size());
        if (depth < 32) layer[depth] = cur.size();
        total += cur.size();
        next.clear();
        for (u64 s : cur) {
            int b = blank(s);
            for (int k = 0; k < nnbr[b]; k++) {
                u64 c = move(s, b, nbr[b][k]);
                u64 r = rank_of(c);
                u64 w = bits[r >> 6], m = 1ull << (r & 63);
                if (!(w & m)) {
                    bits[r >> 6] = w | m;
                    next.push_back(c);
                }
            }
        }
        cur.swap(next);
        depth++;
    }
    double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("total states %llu, layers %d, time %.6f s\n", (unsigned long long)total, depth, sec);
    bool ok = depth == 32 && total == 181440;
    for (int d = 0; d < depth && ok; d++) ok = layer[d] == expected[d];  // OEIS A089473
    printf("%s\n", ok ? "OK: layer counts match OEIS A089473" : "MISMATCH");
    return ok ? 0 : 1;
}
