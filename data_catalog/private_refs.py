"""What names the publisher's own machine or network, found by its form: private addresses and local paths.

The one statement of these rules; redaction.py applies them to what a Hub export publishes.

- Addresses (written ``<private-address>``, their port with them): IPv4 in 10/8, 172.16/12 and 192.168/16
  (RFC 1918), 100.64/10 (carrier-grade NAT), 169.254/16 (link-local), 127/8 (loopback) and 0/8; IPv6 ``::1``,
  fe80::/10 (link-local), fc00::/7 (unique local) and IPv4-mapped forms of the IPv4 ones, bare or in brackets;
  ``localhost``.
- Paths (written ``<local-path>/NAME``, their last name only, so neither the account nor the folders show):
  ``file://`` URLs, Windows drive and UNC paths (``C:\\Users\\x``, ``\\\\host\\share``), home-relative paths
  (``~/x``, ``~alice/x``) and absolute POSIX paths of two names or more (``/root/x``, ``/home/x/y``).

Public addresses and host names, the path of a URL (``https://host/a/b``) and relative paths stay as they are.
"""

from __future__ import annotations

import ipaddress
import re

PRIVATE_ADDRESS = "<private-address>"
LOCAL_PATH = "<local-path>"

_PRIVATE_V4 = [
    ipaddress.ip_network(n)
    for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "127.0.0.0/8")
] + [ipaddress.ip_network("0.0.0.0/8")]
_PRIVATE_V6 = [ipaddress.ip_network(n) for n in ("::1/128", "fe80::/10", "fc00::/7")]

_PORT = r"(?::\d{1,5}(?!\d))?"
_IPV4 = re.compile(r"(?<![\w.])(?P<address>\d{1,3}(?:\.\d{1,3}){3})(?!\w|\.\d)" + _PORT)
_IPV6_BRACKETED = re.compile(r"\[(?P<address>[0-9A-Fa-f:.]+(?:%[\w.-]+)?)\]" + _PORT)
_IPV6 = re.compile(r"(?<![\w:.])(?P<address>(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f.]*(?:%[\w.-]+)?)(?![\w:])")
_LOCALHOST = re.compile(r"(?<![\w.-])localhost(?![\w-])" + _PORT, re.IGNORECASE)

_NAME = r"[^\s/\\\"'`<>|()\[\]{},;*?]"  # one character of a file or folder name, as paths appear in text
_PATHS = [  # in this order: a file URL's path is not left for the POSIX rule
    re.compile(rf"\bfile://(?:{_NAME}|/)*", re.IGNORECASE),
    re.compile(rf"(?<![\w\\/:])\\\\{_NAME}+(?:\\{_NAME}*)+"),  # \\host\share\...
    re.compile(rf"(?<![\w:])[A-Za-z]:[\\/](?:{_NAME}|[\\/])*"),  # C:\Users\..., C:/Users/...
    re.compile(rf"(?<![\w/~.>-])~{_NAME}*/(?:{_NAME}|/)*"),  # ~/..., ~alice/...
    re.compile(rf"(?<![\w.:/~>\\$-])/{_NAME}+(?:/{_NAME}*)+"),  # /root/x, /home/x/y
]


def scrub_private(text: str) -> str:
    """``text`` with private addresses and local paths replaced (the module's rules); the rest unchanged."""
    for pattern in _PATHS:
        text = pattern.sub(_local_path, text)
    for pattern in (_IPV6_BRACKETED, _IPV6, _IPV4):
        text = pattern.sub(lambda m: PRIVATE_ADDRESS if is_private_address(m["address"]) else m[0], text)
    return _LOCALHOST.sub(PRIVATE_ADDRESS, text)


def is_private_address(text: str) -> bool:
    """Whether ``text`` is an IPv4 or IPv6 address (a zone allowed) in one of the private ranges above."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        else:
            return any(address in network for network in _PRIVATE_V6)
    return any(address in network for network in _PRIVATE_V4)


def _local_path(match: re.Match) -> str:
    names = [name for name in re.split(r"[\\/]", match[0]) if name]
    return f"{LOCAL_PATH}/{names[-1]}" if len(names) > 1 else LOCAL_PATH
