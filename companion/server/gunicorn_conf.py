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
keepalive = 5
accesslog = "-"
# Keep access logs short: the live poll is the common line.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'


def post_worker_init(worker):
    """Each worker, its app loaded, settles its memory (``companion.server.memory``) and starts its bell
    sweeper (``companion.live.due``); the first worker, once the socket is bound, says which address the
    phones open."""
    from flask import Flask

    from companion.live import due
    from companion.server.memory import settle

    settle(worker.wsgi)
    # The bell's automatic closes are recorded at their moment, phones asleep or not (one worker sweeps).
    if isinstance(worker.wsgi, Flask):
        due.start(worker.wsgi)
    # Age 1 is the first worker the master starts: workers started later (after a crash, a reload) stay quiet.
    if worker.age == 1:
        from companion.server.announce import announce

        announce(worker)
