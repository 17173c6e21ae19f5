"""Request-wide concerns: security headers and cookies, rate limits, templating, this phone."""
