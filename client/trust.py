"""Whom a TLS client trusts: the system's CAs, or else the certificate it saw first.

A table server on the internet may have a real certificate (checked against the system
CAs and its host name, as a browser would) or, far more often for friends, the
self-signed one `leekha serve --tls` makes. For that one there is nobody to vouch, so the
client does what SSH does: the first time, it shows the fingerprint and keeps it in the
user's config folder (`known_hosts`); later it insists on the same certificate, and
refuses loudly, saying what to do, if it changes. A server once verified by a CA is
remembered as such, so a self-signed impostor cannot pass as a first contact later.

The TLS itself is Twisted's and pyOpenSSL's (`wrapClientTLS`, `CertificateOptions`); the
host name check is service_identity's. Nothing here does cryptography of its own: the
connection creator only records OpenSSL's chain verdict instead of failing on it, so the
known_hosts rule can decide after the handshake and before any byte of ours is sent.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import platformdirs
from twisted.internet.interfaces import IOpenSSLClientConnectionCreator
from zope.interface import implementer

if TYPE_CHECKING:
    # pyOpenSSL, cryptography's X.509 and service_identity are imported when a TLS
    # connection is made: a plain connection (and `leekha play`) never loads them.
    from cryptography import x509
    from OpenSSL import SSL
    from OpenSSL.crypto import X509

from leekha.client.i18n import _
from leekha.client.options import is_ip

FILE_NAME = "known_hosts"
#: The known_hosts entry of a server whose certificate a CA vouched for.
BY_CA = "CA"

How = Literal["ca", "first", "known", "pinned"]


def default_path() -> Path:
    return platformdirs.user_config_path("leekha") / FILE_NAME


def fingerprint(cert: x509.Certificate) -> str:
    """SHA-256 of the certificate, as `openssl x509 -noout -fingerprint -sha256` shows it."""
    from cryptography.hazmat.primitives import hashes

    return cert.fingerprint(hashes.SHA256()).hex(":").upper()


class TrustError(Exception):
    """The server's certificate is not to be trusted; the message says what to do."""


class KnownHosts:
    """`server fingerprint` lines (or `server CA`), one per server, like SSH's file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_path()

    def get(self, server: str) -> str | None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return None
        for line in lines:
            parts = line.split()
            if len(parts) == 2 and parts[0] == server:
                return parts[1]
        return None

    def put(self, server: str, entry: str) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            lines = []
        lines = [ln for ln in lines if ln.split()[:1] != [server]] + [f"{server} {entry}"]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@dataclass
class Verdict:
    """What the check of one connection's certificate found."""

    chain_ok: bool = True
    how: How | None = None
    fingerprint: str = ""
    error: TrustError | None = None


@implementer(IOpenSSLClientConnectionCreator)
class TrustingCreator:
    """TLS 1.2+ client connections with SNI whose certificate passes `check`.

    The check runs in OpenSSL's verify callback on the server's own certificate (depth 0,
    after its chain), so a refused certificate fails the handshake and the hello, with its
    session token, is never sent to the wrong server.
    """

    def __init__(
        self, hostname: str, server: str, known: KnownHosts, pin: str | None = None
    ) -> None:
        self.hostname = hostname
        self.server = server
        self.known = known
        self.pin = pin
        from twisted.internet.ssl import CertificateOptions, TLSVersion

        self._ip = is_ip(hostname)
        self._options = CertificateOptions(raiseMinimumTo=TLSVersion.TLSv1_2)
        self._options.getContext().set_default_verify_paths()
        self._verdicts: weakref.WeakKeyDictionary[object, Verdict] = weakref.WeakKeyDictionary()

    def clientConnectionForTLS(self, tlsProtocol: object) -> SSL.Connection:
        from OpenSSL import SSL

        conn = SSL.Connection(self._options.getContext(), None)
        if not self._ip:
            conn.set_tlsext_host_name(self.hostname.encode("idna"))
        verdict = self._verdicts[tlsProtocol] = Verdict()

        def verify(_c: SSL.Connection, cert: X509, _errno: int, depth: int, ok: int) -> bool:
            verdict.chain_ok = verdict.chain_ok and bool(ok)
            if depth > 0:
                return True  # the chain is judged as a whole at the server's certificate
            if verdict.how is not None or verdict.error is not None:
                return verdict.error is None  # OpenSSL may ask again about the same one
            try:
                verdict.how, verdict.fingerprint = check(
                    cert.to_cryptography(),
                    host=self.hostname,
                    server=self.server,
                    chain_ok=verdict.chain_ok,
                    known=self.known,
                    pin=self.pin,
                )
            except TrustError as exc:
                verdict.error = exc
                return False
            return True

        conn.set_verify(SSL.VERIFY_PEER | SSL.VERIFY_FAIL_IF_NO_PEER_CERT, verify)
        return conn

    def verdict(self, tls_transport: object) -> Verdict | None:
        """The verdict on the connection whose TLS transport this is (None: no handshake)."""
        return self._verdicts.get(tls_transport)


def _name_ok(cert: x509.Certificate, host: str) -> bool:
    from service_identity import VerificationError
    from service_identity.cryptography import (
        verify_certificate_hostname,
        verify_certificate_ip_address,
    )

    try:
        if is_ip(host):
            verify_certificate_ip_address(cert, host)
        else:
            verify_certificate_hostname(cert, host)
    except (VerificationError, ValueError):
        return False
    return True


def check(
    cert: x509.Certificate,
    *,
    host: str,
    server: str,
    chain_ok: bool,
    known: KnownHosts,
    pin: str | None = None,
) -> tuple[How, str]:
    """How this certificate is trusted, and its fingerprint; raises TrustError if it is not.

    A first contact is recorded in `known`. A `pin` (the fingerprint an invitation line
    carries) is the one certificate accepted, whatever a CA or `known` says: the person
    who sent the line vouched for it, and it is recorded as this server's from then on.
    """
    fp = fingerprint(cert)
    if pin is not None:
        if fp != pin:
            raise TrustError(_pinned_wrong(server, pin, fp))
        if known.get(server) != fp:
            known.put(server, fp)
        return "pinned", fp
    vouched = chain_ok and _name_ok(cert, host)
    entry = known.get(server)
    if vouched:
        if entry is None:
            known.put(server, BY_CA)
        return "ca", fp
    if entry is None:
        known.put(server, fp)
        return "first", fp
    if entry == fp:
        return "known", fp
    raise TrustError(_changed(server, entry, fp, known.path))


def _changed(server: str, entry: str, fp: str, path: Path) -> str:
    before = (
        _("a certificate signed by a known authority")
        if entry == BY_CA
        else _("fingerprint {fp}").format(fp=entry)
    )
    return _(
        "REFUSED: the TLS certificate of {server} has changed!\n"
        "  Before: {before}\n"
        "  Now:    fingerprint {fp}\n"
        "Someone may be pretending to be this server, or its operator made a new "
        "certificate. Ask the operator for the fingerprint (`leekha serve --tls` prints it). "
        "If it matches the new one, delete the line for {server} in {path} and join again."
    ).format(server=server, before=before, fp=fp, path=path)


def _pinned_wrong(server: str, pin: str, fp: str) -> str:
    return _(
        "REFUSED: the TLS certificate of {server} is not the one in your invitation.\n"
        "  Invitation: fingerprint {pin}\n"
        "  Server:     fingerprint {fp}\n"
        "Someone may be pretending to be this server, or the invitation is old. Ask the "
        "host for a new invitation line."
    ).format(server=server, pin=pin, fp=fp)


def first_contact_notice(server: str, fp: str) -> str:
    # The fingerprint comes last, so that a narrow status line wraps it whole at its colons.
    return _(
        "First TLS connection to {server}: its certificate is trusted from now on (the "
        "server prints its fingerprint when it starts). Fingerprint: {fp}"
    ).format(server=server, fp=fp)
