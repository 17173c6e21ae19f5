"""Building the package: the project is described in pyproject.toml; this adds one build step.

``templates/`` and ``static/`` stay at the top of the repository, and the gettext catalogs are kept as
``.po`` text: building the package (a wheel, or ``pip install .``) copies the first two into
``companion/`` and compiles each ``.po`` into the ``.mo`` that Flask-Babel reads, so an installed
companion serves its pages and speaks its languages from any directory. An editable install
(``pip install -e .``) reads the checkout itself, and compiles the catalogs there, beside their ``.po``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
FOLDERS = ("templates", "static")


class build_with_pages(build_py):
    """build_py, then the templates, static files and compiled catalogs into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            # An editable install reads the checkout itself (companion._folder), its catalogs too.
            self._compile_catalogs(ROOT / "companion" / "translations")
            return
        package = Path(self.build_lib) / "companion"
        for name in FOLDERS:
            target = package / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(ROOT / name, target)
        self._compile_catalogs(package / "translations")

    @staticmethod
    def _compile_catalogs(translations: Path) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        catalogs = sorted((ROOT / "companion" / "translations").glob("*/LC_MESSAGES/messages.po"))
        if not catalogs:
            raise SystemExit("no catalogs in companion/translations: the package would speak English only")
        for po in catalogs:
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            mo = translations / po.relative_to(ROOT / "companion" / "translations").with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as target:
                write_mo(target, catalog)


setup(cmdclass={"build_py": build_with_pages})
