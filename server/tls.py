"""The server's TLS certificate: the operator's, or a self-signed one made on first run.

The self-signed certificate and its key live in `<data_dir>/tls/` and are reused on every
start, so clients that trusted it on first use (by its SHA-256 fingerprint, as SSH does
with host keys) keep trusting it. The key is written with mode 0600. Nothing here does
cryptography by hand: `cryptography` makes the key and the certificate, and Twisted's
`ssl:` endpoint (pyOpenSSL) serves them.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # cryptography's X.509 is imported when a TLS server is made (start-up)
    from cryptography import x509

#: A self-signed certificate is valid this long (clients pin it, not its dates).
SELF_SIGNED_DAYS = 3650
CERT_NAME = "cert.pem"
KEY_NAME = "key.pem"


class TLSSetupError(Exception):
    """The certificate or key cannot be read or made; the message says which file."""


@dataclass(frozen=True)
class Credentials:
    cert: Path
    key: Path
    fingerprint: str
    self_signed: bool


def fingerprint(cert_pem: bytes) -> str:
    """SHA-256 of the certificate's DER form, as colon-separated upper-case hex (the form
    `openssl x509 -fingerprint -sha256` prints)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes

    cert = x509.load_pem_x509_certificate(cert_pem)
    digest = cert.fingerprint(hashes.SHA256())
    return ":".join(f"{b:02X}" for b in digest)


def make_self_signed(
    cert_path: Path, key_path: Path, hostname: str | None = None, days: int = SELF_SIGNED_DAYS
) -> None:
    """Write a new P-256 key and a certificate for `hostname`, localhost and the loopback
    addresses (files are replaced)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    host = hostname or socket.gethostname() or "localhost"
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host[:64])])
    now = datetime.datetime.now(datetime.UTC)
    alt: list[x509.GeneralName] = [x509.DNSName(host), x509.DNSName("localhost")]
    alt += [x509.IPAddress(ipaddress.ip_address(a)) for a in ("127.0.0.1", "::1")]
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=days))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    key_path.parent.mkdir(parents=True, exist_ok=True)
    cert_path.parent.mkdir(parents=True, exist_ok=True)
    key_bytes = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key_bytes)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


def credentials(data_dir: Path, cert: Path | None, key: Path | None) -> Credentials:
    """The operator's certificate and key, or the self-signed pair of `data_dir` (made
    now if it does not exist yet)."""
    self_signed = cert is None
    if cert is None:
        folder = data_dir / "tls"
        cert, key = folder / CERT_NAME, folder / KEY_NAME
        if not (cert.is_file() and key.is_file()):
            try:
                make_self_signed(cert, key)
            except OSError as exc:
                raise TLSSetupError(f"cannot write a certificate in {folder}: {exc}") from None
    key = key if key is not None else cert
    try:
        pem = cert.read_bytes()
        key.read_bytes()
    except OSError as exc:
        raise TLSSetupError(f"cannot read {exc.filename}: {exc.strerror}") from None
    try:
        print_ = fingerprint(pem)
    except ValueError:
        raise TLSSetupError(f"{cert} is not a PEM certificate") from None
    return Credentials(cert, key, print_, self_signed)


def quote(value: str) -> str:
    """Escape a value for a Twisted endpoint description (':' and '\\' are special)."""
    return value.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=")


def with_credentials(description: str, creds: Credentials) -> str:
    """An `ssl:` description with the certificate and key filled in when it names none."""
    if "privateKey=" in description or "certKey=" in description:
        return description
    return f"{description}:privateKey={quote(str(creds.key))}:certKey={quote(str(creds.cert))}"
