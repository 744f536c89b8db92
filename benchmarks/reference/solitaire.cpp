// Solitaire (POJ 1198 / HDU 1401), judge format: pairs of lines "r1 c1 .. r4 c4" until end of
// file; prints YES iff the second configuration is reachable from the first within 8 moves.
// Meet in the middle: BFS 4 layers from each end; YES iff the balls intersect.
// State: 64-bit occupancy mask (square 8*(r-1)+(c-1)); visited: stamp arrays indexed by the
// colex rank of the 4-subset (635,376 entries), so nothing is cleared between pairs.
// Build: g++ -O2 -march=native -std=c++17 solitaire.cpp -o solitaire
#include <cstdint>
#include <cstdio>
#include <vector>

typedef uint64_t u64;
static const int NRANK = 635376;
static int binom[65][5];
static unsigned stamp_a[NRANK], stamp_b[NRANK];
static int step_to[64][4], jump_to[64][4];  // -1 when off the board

static inline int rank_of(u64 m) {
    int r = 0;
    #pragma GCC unroll 4
    for (int j = 1; j <= 4; j++) {
        int s = __builtin_ctzll(m);
        r += binom[s][j];
        m &= m - 1;
    }
    return r;
}

template <class F>
static inline void children(u64 s, F&& f) {
    u64 rest = s;
    #pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        int sq = __builtin_ctzll(rest);
        rest &= rest - 1;
        for (int d = 0; d < 4; d++) {
            int n = step_to[sq][d];
            if (n < 0) continue;
            int to = n;
            if (s >> n & 1) {
                to = jump_to[sq][d];
                if (to < 0 || (s >> to & 1)) continue;
            }
            f(s ^ (1ull << sq) ^ (1ull << to));
        }
    }
}

// BFS `layers` layers from `start`, stamping `mine`; returns true as soon as a state stamped in
// `other` (with the same stamp) is reached.
static bool ball(u64 start, int layers, unsigned* mine, const unsigned* other, unsigned stamp,
                 std::vector<u64>& cur, std::vector<u64>& next) {
    int r0 = rank_of(start);
    mine[r0] = stamp;
    if (other && other[r0] == stamp) return true;
    cur.assign(1, start);
    for (int depth = 0; depth < layers && !cur.empty(); depth++) {
        next.clear();
        bool met = false;
        for (u64 s : cur)
            children(s, [&](u64 c) {
                int r = rank_of(c);
                if (mine[r] == stamp) return;
                mine[r] = stamp;
                if (other && other[r] == stamp) met = true;
                next.push_back(c);
            });
        if (met) return true;
        cur.swap(next);
    }
    return false;
}

static bool read_config(u64& mask) {
    mask = 0;
    for (int i = 0; i < 4; i++) {
        int r, c;
        if (scanf("%d %d", &r, &c) != 2) return false;
        mask |= 1ull << (8 * (r - 1) + c - 1);
    }
    return true;
}

int main() {
    for (int n = 0; n <= 64; n++)
        for (int k = 0; k <= 4; k++) binom[n][k] = k == 0 ? 1 : n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
    const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int sq = 0; sq < 64; sq++)
        for (int d = 0; d < 4; d++) {
            int r = sq / 8, c = sq % 8;
            auto at = [&](int k) {
                int rr = r + k * dr[d], cc = c + k * dc[d];
                return rr >= 0 && rr < 8 && cc >= 0 && cc < 8 ? rr * 8 + cc : -1;
            };
            step_to[sq][d] = at(1);
            jump_to[sq][d] = at(2);
        }
    std::vector<u64> cur, next;
    cur.reserve(1 << 16);
    next.reserve(1 << 16);
    u64 a, b;
    unsigned stamp = 0;
    while (read_config(a) && read_config(b)) {
        stamp++;
        ball(a, 4, stamp_a, nullptr, stamp, cur, next);
        puts(ball(b, 4, stamp_b, stamp_a, stamp, cur, next) ? "YES" : "NO");
    }
    return 0;
}
