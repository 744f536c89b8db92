// Full BFS of the 3x4 sliding puzzle (11-puzzle) from the goal state.
// State: 4 bits per cell (cell i at bits 4i, blank = 0), blank position in bits 60..63.
// Visited: bitset over the Lehmer rank of the 12-cell permutation (12! bits = 60 MB).
// Two expansion loops:
//   plain    : for each child, rank it and test-and-set its bit immediately.
//   prefetch : children are gathered in batches of ~256; their ranks are computed and the
//              bitset words prefetched, then the batch is test-and-set in order.
//   distances: the plain loop, keeping each rank's depth (a byte per rank, 479 MB); then reads
//              boards from standard input, one per line (12 tokens, x or 0 the blank), and prints
//              each one's distance to the goal, -1 for the other half (the progress goes to stderr).
// Build: g++ -O2 -march=native -std=c++17 sliding3x4.cpp -o sliding3x4
// Run:   ./sliding3x4 [plain|prefetch|distances]      (default: plain)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int W = 4, H = 3, N = W * H;
typedef uint64_t u64;

static int nbr[N][4], nnbr[N];
// OEIS A090166: 3x4 puzzle, blank starting in a corner; depths 0..53 (54 layers).
static const u64 expected[54] = {
    1,        2,        4,        9,        20,       37,       63,       122,      232,
    431,      781,      1392,     2494,     4442,     7854,     13899,    24215,    41802,
    71167,    119888,   198363,   323206,   515778,   811000,   1248011,  1885279,  2782396,
    4009722,  5621354,  7647872,  10065800, 12760413, 15570786, 18171606, 20299876, 21587248,
    21841159, 20906905, 18899357, 16058335, 12772603, 9515217,  6583181,  4242753,  2503873,
    1350268,  643245,   270303,   92311,    27116,    5390,     1115,     86,       18};

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

static void expand_plain(const std::vector<u64>& cur, std::vector<u64>& next, u64* bits) {
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
}

constexpr int BATCH = 256;

static void expand_prefetch(const std::vector<u64>& cur, std::vector<u64>& next, u64* bits) {
    u64 cs[BATCH], rs[BATCH];
    int n = 0;
    auto flush = [&]() {
        for (int i = 0; i < n; i++) {
            u64 r = rs[i];
            u64 w = bits[r >> 6], m = 1ull << (r & 63);
            if (!(w & m)) {
                bits[r >> 6] = w | m;
                next.push_back(cs[i]);
            }
        }
        n = 0;
    };
    for (u64 s : cur) {
        int b = blank(s);
        for (int k = 0; k < nnbr[b]; k++) {
            u64 c = move(s, b, nbr[b][k]);
            u64 r = rank_of(c);
            __builtin_prefetch(&bits[r >> 6], 1, 0);
            cs[n] = c;
            rs[n] = r;
            n++;
        }
        if (n > BATCH - 4) flush();
    }
    flush();
}

int main(int argc, char** argv) {
    bool pf = argc > 1 && strcmp(argv[1], "prefetch") == 0;
    bool dist = argc > 1 && strcmp(argv[1], "distances") == 0;
    FILE* log = dist ? stderr : stdout;
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
    std::vector<uint8_t> depth_of(dist ? nperm : 0, 255);
    if (dist) depth_of[r0] = 0;

    std::vector<u64> cur{goal}, next;
    u64 total = 0, layer[54] = {0};
    int depth = 0;
    while (!cur.empty()) {
        fprintf(log, "depth %2d: %llu\n", depth, (unsigned long long)cur.size());
        if (depth < 54) layer[depth] = cur.size();
        total += cur.size();
        next.clear();
        if (pf)
            expand_prefetch(cur, next, bits.data());
        else
            expand_plain(cur, next, bits.data());
        if (dist)
            for (u64 c : next) depth_of[rank_of(c)] = depth + 1;
        cur.swap(next);
        depth++;
    }
    double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fprintf(log, "variant %s: total states %llu, layers %d, time %.6f s\n",
            pf ? "prefetch" : dist ? "distances" : "plain", (unsigned long long)total, depth, sec);
    bool ok = total == 239500800ull && depth == 54;
    for (int d = 0; d < depth && ok; d++) ok = layer[d] == expected[d];
    fprintf(log, "%s\n", ok ? "OK: layer counts match OEIS A090166" : "MISMATCH");
    if (!ok || !dist) return ok ? 0 : 1;
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        u64 s = 0;
        int i = 0;
        for (char* token = strtok(line, " \t\r\n"); token && i < N; token = strtok(nullptr, " \t\r\n"), i++) {
            int v = token[0] == 'x' ? 0 : atoi(token);
            s |= (u64)v << (4 * i);
            if (v == 0) s |= (u64)i << 60;
        }
        if (i == 0) continue;
        int d = depth_of[rank_of(s)];
        printf("%d\n", d == 255 ? -1 : d);
    }
    return 0;
}
