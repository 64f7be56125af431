"""The e-mail transport: players who do not use Discord play by mail, against each other or
against Discord players, on the same game service.

* `inbound` — reading a mail safely: sender, loops, size, MIME, text, commands, game key.
* `gateway` — `EmailGateway`: a mail becomes a service call; answers and the outbox mails.
* `outbound` — composing mails (one thread per game, the board as a PNG) and the relay.
* `server` — the SMTP server (aiosmtpd) and the IMAP poller (aioimaplib).
* `runner` — `run_email_gateway(service, settings)` and ``commandpost email``.
"""

from .gateway import PLACE, TRANSPORT, EmailGateway
from .runner import run_email_gateway

__all__ = ["PLACE", "TRANSPORT", "EmailGateway", "run_email_gateway"]
