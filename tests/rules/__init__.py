"""Rules tests: pure, no app; one package per game, as in companion/rules/."""
