#!/usr/bin/env python3
"""Run COMMAND as a freshly started process: every signal but SIGHUP at
its default action, none blocked, and no open descriptor but standard
input, output and error.

A program started in the background by a shell without job control
(an '&' in a script, a CI runner) inherits SIGINT and SIGQUIT ignored,
and a POSIX shell cannot undo an ignore it inherited.  glibc's tests
inherit them from make: some check the dispositions a process starts
with (signal/tst-sigset2 fails with SIGINT ignored), as a Debian build
daemon starts them at their defaults.  SIGHUP keeps what it had: under
nohup, a hangup of the terminal must not stop the command.  Descriptors
left open by whatever started us (a CI runner's, a terminal's) reach
the tests too, and those of closefrom and close_range fail when they
see one closed (io/tst-closefrom: "descriptor 251 was closed").

Usage: scripts/lib/fresh-process.py COMMAND [ARGUMENT...]
"""

import os
import signal
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.rsplit("\n\n", 1)[-1].strip())
    for number in range(1, signal.NSIG):
        if number == signal.SIGHUP:
            continue
        try:
            signal.signal(number, signal.SIG_DFL)
        except (OSError, ValueError, RuntimeError):
            pass  # SIGKILL, SIGSTOP, and those libc keeps for itself.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    except OSError as e:
        sys.exit(f"fresh-process: {sys.argv[1]}: {e.strerror}")


main()
