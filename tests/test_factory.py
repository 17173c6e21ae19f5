"""The app factory and its configuration: defaults, instance config, environment, the secret key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from companion import config, create_app

ROOT = Path(__file__).resolve().parent.parent


def test_testing_config_is_taken():
    assert not create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"}).testing
    assert create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"}).testing


def test_defaults_put_sqlite_in_the_instance_folder():
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///" + os.path.join(app.instance_path, "companion.sqlite")
    assert app.config["MAX_CONTENT_LENGTH"] == 256 * 1024


def test_database_url_and_secret_key_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://user:pw@localhost/companion")
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    app = create_app.__wrapped__() if hasattr(create_app, "__wrapped__") else None
    from flask import Flask

    app = Flask(__name__)
    config.load_environment(app)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://user:pw@localhost/companion"
    assert app.config["SECRET_KEY"] == "from-the-environment"


def test_instance_config_then_environment(tmp_path):
    """Run in a subprocess: the factory reads instance/config.py, and the environment wins over it."""
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("LIVE_POLL_SECONDS = 3\nSECRET_KEY = 'from-file'\n")
    code = (
        "import flask, companion\n"
        f"flask.Flask.__init__.__defaults__  # noqa\n"
        "from companion import create_app\n"
        "import companion as c\n"
        "app = create_app()\n"
        "print(app.config['LIVE_POLL_SECONDS'], app.config['SECRET_KEY'], app.config['SQLALCHEMY_DATABASE_URI'])\n"
    )
    env = {**os.environ, "COMPANION_LIVE_POLL_SECONDS": "2", "DATABASE_URL": "sqlite:///" + str(tmp_path / "x.db")}
    env.pop("SECRET_KEY", None)
    # instance_path is the package's sibling "instance" folder unless told otherwise.
    script = tmp_path / "run.py"
    script.write_text(code.replace("app = create_app()", "from unittest import mock\n"
                      f"with mock.patch('flask.Flask.auto_find_instance_path', lambda self: {str(instance)!r}):\n"
                      "    app = create_app()"))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout.split() == ["2", "from-file", "sqlite:///" + str(tmp_path / "x.db")]


def test_a_secret_key_is_generated_once_and_reused(tmp_path):
    from flask import Flask

    first = Flask(__name__, instance_path=str(tmp_path))
    config.ensure_secret_key(first)
    second = Flask(__name__, instance_path=str(tmp_path))
    config.ensure_secret_key(second)
    assert len(first.config["SECRET_KEY"]) == 64
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_no_secret_is_in_the_repository():
    tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True, cwd=ROOT).stdout.split()
    assert not [name for name in tracked if name.startswith("instance/") and name != "instance/.gitkeep"]

