"""gunicorn settings shared by `make run`, the browser tests and the benchmarks."""

# gthread, reading each request whole in its event loop before a thread sees it (companion/server/serving.py),
# and holding the table pages' streams in that loop (companion/server/streaming.py): slow clients and open
# pages hold a socket, never a thread, and the threads serve the table.
worker_class = "companion.server.streaming.StreamingWorker"
threads = 4
# Per worker: the pages' streams (one per open table page), kept-alive connections and slow clients
# together. 1,000 tables of six phones on four workers is 1,500 streams each, with their phones'
# connections kept alive between two entries beside them; room for twice that on fewer workers.
worker_connections = 10000
timeout = 30
graceful_timeout = 10
# Longer than a table page's safety poll while its stream is up (15 s, static/app.js): the poll finds its
# connection still open instead of opening one (a city's 6,000 phones poll 400 times a second).
keepalive = 20
# A request line or a header line over gunicorn's limits gets gunicorn's own bare English page, without the
# app's headers. The app refuses shorter ones itself (companion/web/security.py: URL_MAX, HEADER_LINE_MAX),
# with its page in the phone's language: gunicorn's limits stand above the app's. 8190 bytes is the longest
# request line gunicorn can be set to take, short of no limit at all.
limit_request_line = 8190
limit_request_field_size = 32768
accesslog = "-"
# Keep access logs short: the live poll is the common line.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'


def post_worker_init(worker):
    """Each worker, its app loaded, settles its memory (``companion.server.memory``), starts its bell
    sweeper (``companion.live.due``) and its bins' emptier (``companion.groups.bin``) and tells its app
    where the server listens (the join links' address, ``companion.web.hosting``); the first worker,
    once the socket is bound, says which address the phones open."""
    from flask import Flask

    from companion.groups import bin
    from companion.live import due
    from companion.server.announce import listening_hosts
    from companion.web.hosting import listening_on
    from companion.server.memory import settle

    settle(worker.wsgi)
    if isinstance(worker.wsgi, Flask):
        # The bell's automatic closes are recorded at their moment, phones asleep or not (one worker sweeps).
        due.start(worker.wsgi)
        # What has lain in a bin for its time is emptied for good, whoever asks or not.
        bin.start(worker.wsgi)
        # On loopback alone (HOST=127.0.0.1), the pages' join links and QR codes are loopback's.
        listening_on(worker.wsgi, listening_hosts(worker))
    # Age 1 is the first worker the master starts: workers started later (after a crash, a reload) stay quiet.
    if worker.age == 1:
        from companion.server.announce import announce

        announce(worker)


def on_starting(server):
    """The master makes the folder where its workers keep the regions they render for the streams
    (``companion.live.store``): one rendering of a table version for the whole host. It is private
    (mode 0700: the regions hold what each seat alone may see) and in memory where the system has
    ``/dev/shm``. It opens no control socket unless the command names one (``_control_socket``)."""
    import os
    import tempfile

    from companion.live.store import STORE_ENV

    _control_socket(server.cfg)
    shared_memory = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    _remove_left_behind(shared_memory or tempfile.gettempdir())
    os.environ[STORE_ENV] = tempfile.mkdtemp(prefix=f"companion-regions-{os.getpid()}-", dir=shared_memory)


def when_ready(server):
    """The master, its socket bound, starts the SQLite library's backups: one now and one a day
    (``companion.server.backups``; off with ``COMPANION_BACKUPS_KEPT=0``)."""
    from companion.server import backups

    backups.start()


def _control_socket(cfg):
    """No control socket for ``gunicornc`` unless the command names its own (``--control-socket PATH``).

    gunicorn 25 and later open one by default at a single path per user (``$XDG_RUNTIME_DIR/gunicorn.ctl``,
    else ``~/.gunicorn/gunicorn.ctl``): a second server on the machine (``make run`` beside the tests', two
    checkouts) takes the path over, the first one's commands then reach the second, and the first, stopping,
    removes the second's socket. Nothing here uses it; a server given a path of its own keeps it.
    """
    setting = cfg.settings["control_socket"]
    if setting.value == setting.default:
        cfg.set("control_socket_disable", True)


def _remove_left_behind(parent):
    """The folders of this user's masters that were killed before they could remove theirs (the pid is in the name)."""
    import os
    import shutil
    from pathlib import Path

    for folder in Path(parent).glob("companion-regions-*-*"):
        pid = folder.name.split("-")[2]
        try:
            if not pid.isdigit() or folder.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


def on_exit(server):
    """The master, stopping, removes its workers' regions and stops the backups."""
    import os
    import shutil

    from companion.live.store import STORE_ENV
    from companion.server import backups

    backups.stop()
    if folder := os.environ.pop(STORE_ENV, None):
        shutil.rmtree(folder, ignore_errors=True)
