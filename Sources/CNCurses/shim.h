#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncurses.h>

// Functions for what ncurses offers as macros, which Swift cannot call.

static inline int cnc_lines(void) { return LINES; }
static inline int cnc_columns(void) { return COLS; }
static inline int cnc_print(int y, int x, const char *text) { return mvaddstr(y, x, text); }
static inline int cnc_bold(int on) { return on ? attron(A_BOLD) : attroff(A_BOLD); }
static inline int cnc_reverse(int on) { return on ? attron(A_REVERSE) : attroff(A_REVERSE); }
static inline int cnc_clear_line(int y) { move(y, 0); return clrtoeol(); }
static inline int cnc_keypad(void) { return keypad(stdscr, TRUE); }
static inline void cnc_read_timeout(int milliseconds) { timeout(milliseconds); }
static inline void cnc_use_locale(void) { setlocale(LC_ALL, ""); }
static inline int cnc_key_resize(void) { return KEY_RESIZE; }
static inline int cnc_key_up(void) { return KEY_UP; }
static inline int cnc_key_down(void) { return KEY_DOWN; }
static inline int cnc_key_left(void) { return KEY_LEFT; }
static inline int cnc_key_right(void) { return KEY_RIGHT; }
static inline int cnc_key_enter(void) { return KEY_ENTER; }
static inline int cnc_key_backspace(void) { return KEY_BACKSPACE; }

#endif
