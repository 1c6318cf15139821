/* clip.h: what to say about copying through the terminal's clipboard
 * sequence (OSC 52): under tmux it reaches the outer terminal only with
 * tmux's set-clipboard on, which is asked of tmux itself (`tmux show -gv
 * set-clipboard`, spawned without a shell).  UI thread only. */
#ifndef RENTOP_UI_CLIP_H
#define RENTOP_UI_CLIP_H

#include <stdbool.h>
#include <stddef.h>

/* The advice after a copy: in_tmux, and tmux's set-clipboard value (NULL:
 * could not be read).  "" when nothing needs saying.  Pure. */
const char *clip_advice(bool in_tmux, const char *setting);
/* tmux's set-clipboard value into buf ("on", "external", "off"); false
 * when not under tmux or tmux could not be asked. */
bool clip_tmux_setting(char *buf, size_t n);
/* clip_advice for this process's terminal. */
const char *clip_advice_here(void);
/* Write a terminal sequence (OSC 52, a notification's OSC 9/777) straight
 * to the terminal, between two doupdate()s (curses has flushed: nothing is
 * interleaved).  The one way such bytes reach the terminal. */
void clip_term_write(const char *seq, size_t n);

#endif
