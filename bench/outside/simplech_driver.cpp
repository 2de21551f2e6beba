/* A line-protocol driver around Martin Fierz's simplech ("simple checkers", the engine
 * shipped with CheckerBoard), written for gamesearch's benchmarks (issue 41).
 *
 * simplech's source is not part of gamesearch: bench/outside/build_simplech.sh compiles this
 * file with the simplech.c of a folder given on its command line (#included below as
 * SIMPLECH_SOURCE, after the build script removed the Qt logging of the Linux port).
 *
 * Protocol: one command a line on stdin, one answer a line on stdout.
 *   hello              -> ok simplech
 *   position FEN       -> ok          (PDN FEN: B:W21,22,...:B1,2,...,K for a king)
 *   go SECONDS         -> bestmove 11-15 | bestmove 15x24x31 | bestmove none
 *   quit               -> (exits)
 * Anything else, or a FEN it cannot read, answers "error ..." on one line.
 *
 * simplech keeps its board as int[46] (squares 5..40, a padding square after every
 * eight); it plays the move it chose on that board. The driver finds the move by trying
 * each legal move (simplech's own generator) on a copy and comparing boards, then writes
 * every landing square of a capture: a jumped piece's square is half way between two
 * landings, so each landing is 2 * jumped - previous landing in that numbering.
 */

/* What the Linux port's headers lack: Qt's qMin, and CheckerBoard's colour swap (white 1,
 * black 2). */
#define qMin(a, b) ((a) < (b) ? (a) : (b))
#define CB_CHANGECOLOR(color) ((color) ^ 3)

/* simplech times its search with clock(), the processor time of its process; our engine
 * with the wall clock. On a shared machine those differ by the load, so simplech is given
 * the wall clock too (steady, in clock() units): a move time means the same for both. */
#include <chrono>
#include <ctime>
static clock_t driver_wall_clock() {
    auto now = std::chrono::steady_clock::now().time_since_epoch();
    return static_cast<clock_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(now).count() *
        (CLOCKS_PER_SEC / 1e6));
}
#define clock driver_wall_clock
#include SIMPLECH_SOURCE
#undef clock

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

namespace driver {

int square_of_index[46];  // 1..32, 0 off the board
int index_of_square[33];

/* Squares 1-32 (PDN numbering, the one simplech prints) to indexes of simplech's board,
 * by the same arithmetic its movetonotation uses to go the other way. */
void make_tables() {
    for (int idx = 0; idx < 46; idx++) square_of_index[idx] = 0;
    for (int idx = 5; idx <= 40; idx++) {
        if (idx % 9 == 0) continue;  // the padding squares 9, 18, 27, 36
        int k = idx - idx / 9 - 5;
        int square = k - k % 4 + (3 - k % 4) + 1;
        square_of_index[idx] = square;
        index_of_square[square] = idx;
    }
}

void empty_board(int b[46]) {
    for (int i = 0; i < 46; i++) b[i] = OCCUPIED;
    for (int i = 5; i <= 40; i++) b[i] = (i % 9 == 0) ? OCCUPIED : FREE;
}

/* Reads "B:W21,22:BK1,2" (ranges like 1-12 too) into b and the side to move. */
bool read_fen(const std::string &text, int b[46], int *color, std::string *why) {
    std::string fen;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)) && c != '"') fen += c;
    if (!fen.empty() && fen.back() == '.') fen.pop_back();
    empty_board(b);
    std::stringstream parts(fen);
    std::string part;
    int field = 0;
    while (std::getline(parts, part, ':')) {
        if (part.empty()) { *why = "empty field"; return false; }
        char side = static_cast<char>(std::toupper(static_cast<unsigned char>(part[0])));
        if (side != 'B' && side != 'W') { *why = "field must start with B or W"; return false; }
        if (field == 0) {
            if (part.size() != 1) { *why = "first field is the side to move"; return false; }
            *color = side == 'B' ? BLACK : WHITE;
        } else {
            std::stringstream items(part.substr(1));
            std::string item;
            while (std::getline(items, item, ',')) {
                if (item.empty()) continue;
                bool king = std::toupper(static_cast<unsigned char>(item[0])) == 'K';
                if (king) item = item.substr(1);
                int low = 0, high = 0;
                size_t dash = item.find('-');
                char *end = nullptr;
                low = static_cast<int>(std::strtol(item.c_str(), &end, 10));
                if (end == item.c_str()) { *why = "bad square " + item; return false; }
                high = dash == std::string::npos ? low
                       : static_cast<int>(std::strtol(item.c_str() + dash + 1, nullptr, 10));
                if (low < 1 || high > 32 || low > high) {
                    *why = "squares are 1-32, not " + item;
                    return false;
                }
                for (int s = low; s <= high; s++) {
                    int piece = (side == 'B' ? BLACK : WHITE) | (king ? KING : MAN);
                    b[index_of_square[s]] = piece;
                }
            }
        }
        field++;
    }
    if (field != 3) { *why = "expected side:W...:B..."; return false; }
    return true;
}

/* The move from `before` to `after` among the legal moves, written with every landing. */
std::string find_move(int before[46], int after[46], int color) {
    move2 list[MAXMOVES];
    int n = generatecapturelist(before, list, color);
    if (n == 0) n = generatemovelist(before, list, color);
    for (int i = 0; i < n; i++) {
        int tried[46];
        for (int k = 0; k < 46; k++) tried[k] = before[k];
        domove(tried, list[i]);
        bool same = true;
        for (int k = 0; k < 46; k++) same = same && tried[k] == after[k];
        if (!same) continue;
        int from = list[i].m[0] % 256;
        std::ostringstream out;
        out << square_of_index[from];
        if (list[i].n <= 2) {
            out << '-' << square_of_index[list[i].m[1] % 256];
        } else {
            int previous = from;
            for (int j = 2; j < list[i].n; j++) {
                int landing = 2 * (list[i].m[j] % 256) - previous;
                out << 'x' << square_of_index[landing];
                previous = landing;
            }
        }
        return out.str();
    }
    return "";
}

/* simplech's checkers() first looks for a forced move, and when there are two or more
 * captures it counts the quiet moves instead: with one quiet move it plays it ("only move",
 * illegal, a capture was due), with none it says there is no legal move. Found here on
 * W:WK18:B14,22,23 (three captures, one quiet move); versions 1.14 and 1.15 alike. In
 * those positions only, the driver runs checkers()'s own iterative deepening (simplech's
 * firstalphabeta, the same time rule, the last finished iteration's move when time runs
 * out), so that the program's search, not this slip, chooses. */
void search_captures(int b[46], int color, double iteration_seconds) {
    move2 best, lastbest;
    int eval = firstalphabeta(b, 1, -10000, 10000, color, &best);
    lastbest = best;
    for (int depth = 2; depth <= MAXDEPTH &&
         (driver_wall_clock() - starttime) / (double)CLOCKS_PER_SEC < iteration_seconds; depth++) {
        lastbest = best;
        eval = firstalphabeta(b, depth, -10000, 10000, color, &best);
        if (*play || eval == 5000 || eval == -5000) break;
    }
    domove(b, *play ? lastbest : best);
}

int count_captures(int b[46], int color) {
    move2 list[MAXMOVES];
    return generatecapturelist(b, list, color);
}

int count_moves(int b[46], int color) {
    move2 list[MAXMOVES];
    int n = generatecapturelist(b, list, color);
    return n ? n : generatemovelist(b, list, color);
}

}  // namespace driver

int main() {
    driver::make_tables();
    int board[46];
    int color = BLACK;
    bool have_position = false;
    int stop = 0;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string command;
        words >> command;
        if (command.empty()) continue;
        if (command == "quit") break;
        if (command == "hello") {
            std::cout << "ok simplech" << std::endl;
        } else if (command == "position") {
            std::string rest, why;
            std::getline(words, rest);
            if (driver::read_fen(rest, board, &color, &why)) {
                have_position = true;
                std::cout << "ok" << std::endl;
            } else {
                have_position = false;
                std::cout << "error cannot read FEN: " << why << std::endl;
            }
        } else if (command == "go") {
            double seconds = -1;
            words >> seconds;
            if (!have_position) {
                std::cout << "error no position" << std::endl;
                continue;
            }
            if (!(seconds > 0)) {
                std::cout << "error go needs seconds > 0" << std::endl;
                continue;
            }
            int before[46];
            for (int k = 0; k < 46; k++) before[k] = board[k];
            if (driver::count_moves(before, color) == 0) {
                std::cout << "bestmove none" << std::endl;
                continue;
            }
            char info[1024] = "";
            stop = 0;
            play = &stop;
            starttime = driver_wall_clock();
            /* simplech's own fixed-time settings (its getmove): iterations start until
             * 0.59 of the time is gone, a search is cut at three times the time. */
            absolute_maxtime = 3 * seconds;
            if (driver::count_captures(before, color) >= 2)
                driver::search_captures(board, color, 0.59 * seconds);
            else
                checkers(board, color, 0.59 * seconds, info);
            std::string move = driver::find_move(before, board, color);
            for (int k = 0; k < 46; k++) board[k] = before[k];
            if (move.empty())
                std::cout << "error the board after the search is no legal move" << std::endl;
            else
                std::cout << "bestmove " << move << std::endl;
        } else {
            std::cout << "error unknown command " << command << std::endl;
        }
    }
    return 0;
}
