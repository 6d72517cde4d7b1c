"""What the exporter tells its user on stderr: the error that stops it, the
warnings that make its exit status 1, and a progress line on a terminal."""

import sys


class ExportError(Exception):
    """Something that makes the export impossible (exit 2)."""


class Problems:
    """What could not be read; printed on stderr, makes the exit status 1."""

    def __init__(self):
        self.items = []

    def add(self, text):
        self.items.append(text)
        clear_progress()
        print("dispatchctl-export: warning: " + text, file=sys.stderr)


_progress_shown = False


def show_progress(text):
    global _progress_shown
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()
        _progress_shown = True


def clear_progress():
    global _progress_shown
    if _progress_shown:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
        _progress_shown = False
