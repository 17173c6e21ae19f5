"""Tests of companion/i18n/."""
