// A Game on the Chessboard (CEOI 1999), judge format: start and final positions (4 rows of
// 0/1 each, empty lines between) until end of file; prints the minimum number of swaps and
// one shortest swap list "R1 C1 R2 C2", or -1 when the black-stone counts differ.
// BFS from the start over 16-bit masks of black stones until the final mask is reached;
// parent moves in a 65,536-entry array stamped per case (nothing cleared between cases).
// Build: g++ -O2 -march=native -std=c++17 chessboard.cpp -o chessboard
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static int swap_a[24], swap_b[24];
static unsigned stamp_of[1 << 16];
static signed char parent_move[1 << 16];

static bool read_position(int& mask) {
    mask = 0;
    char row[64];
    for (int r = 0; r < 4; r++) {
        if (scanf("%63s", row) != 1) return false;
        for (int c = 0; c < 4; c++)
            if (row[c] == '1') mask |= 1 << (4 * r + c);
    }
    return true;
}

int main() {
    int m = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++) swap_a[m] = 4 * r + c, swap_b[m++] = 4 * r + c + 1;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) swap_a[m] = 4 * r + c, swap_b[m++] = 4 * r + c + 4;
    std::vector<int> queue(1 << 16);
    int start, final_;
    unsigned stamp = 0;
    while (read_position(start) && read_position(final_)) {
        if (__builtin_popcount(start) != __builtin_popcount(final_)) {
            puts("-1");
            fprintf(stderr, "black stone counts differ\n");
            continue;
        }
        stamp++;
        int head = 0, tail = 0;
        queue[tail++] = start;
        stamp_of[start] = stamp;
        parent_move[start] = -1;
        while (head < tail && stamp_of[final_] != stamp) {
            int s = queue[head++];
            for (int k = 0; k < 24; k++) {
                int a = swap_a[k], b = swap_b[k];
                if (((s >> a) ^ (s >> b)) & 1) {
                    int c = s ^ (1 << a) ^ (1 << b);
                    if (stamp_of[c] != stamp) {
                        stamp_of[c] = stamp;
                        parent_move[c] = k;
                        queue[tail++] = c;
                    }
                }
            }
        }
        std::vector<int> moves;
        for (int s = final_; parent_move[s] >= 0 && s != start; s ^= (1 << swap_a[parent_move[s]]) | (1 << swap_b[parent_move[s]]))
            moves.push_back(parent_move[s]);
        printf("%d\n", (int)moves.size());
        for (int i = (int)moves.size() - 1; i >= 0; i--) {
            int k = moves[i];
            printf("%d %d %d %d\n", swap_a[k] / 4 + 1, swap_a[k] % 4 + 1, swap_b[k] / 4 + 1, swap_b[k] % 4 + 1);
        }
    }
    return 0;
}
