"""Run the command line and hold it at a chosen point until the test's signal ends it.

A test that stops a real process (SIGKILL, Ctrl-C) must not race it to the end: on a fast or
a busy machine the run could finish, or be far past the point the test meant, before the
signal is sent. ``python held.py WHERE N ARGS...`` runs ``vecsearch ARGS`` and, once the run
reaches the point, says so on standard error (``HELD``) and sleeps until a signal arrives:

- ``chunks N``: after the N-th chunk of a ``vecsearch batch`` is written;
- ``depth N``: after the checkpoint of depth N of a ``vecsearch bfs --checkpoint`` is written;
- ``layers N``: after the N-th layer of a search is recorded in its profile (no checkpoint needed).
"""

import signal
import sys
import time

from vecsearch import batch_io, cli
from vecsearch.engine.results import profile
from vecsearch.engine.runtime import checkpoint

HELD = "held.py: held"  # the line on standard error that says the run is held


def hold():
    print(HELD, file=sys.stderr, flush=True)
    time.sleep(3600)  # the test's signal ends the sleep (SIGINT raises KeyboardInterrupt here)
    sys.exit("held.py: no signal came within an hour")


def after_chunks(limit, iterate):
    def iterate_then_hold(*args, **kwargs):
        for number, chunk in enumerate(iterate(*args, **kwargs), 1):
            yield chunk  # the caller writes it before asking for the next one
            if number >= limit:
                hold()

    return iterate_then_hold


def after_depth(limit, save):
    def save_then_hold(directory, meta, arrays):
        save(directory, meta, arrays)
        if meta["depth"] >= limit:
            hold()

    return save_then_hold


def after_layers(limit, add):
    def add_then_hold(self, record):
        add(self, record)
        if len(self.records) >= limit:
            hold()

    return add_then_hold


def main(where, limit, *args):
    # A shell's background job ignores SIGINT, and its children inherit that: the test's Ctrl-C
    # must reach this run whatever launched the test suite.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if where == "chunks":
        batch_io.iter_many = after_chunks(int(limit), batch_io.iter_many)
    elif where == "depth":
        checkpoint.save = after_depth(int(limit), checkpoint.save)
    elif where == "layers":
        profile.Profile.add = after_layers(int(limit), profile.Profile.add)
    else:
        raise SystemExit(f"held.py: hold after 'chunks', 'depth' or 'layers', not {where!r}")
    return cli.main(list(args))


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
