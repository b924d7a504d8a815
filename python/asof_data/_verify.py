"""The folder's list of files and their sha256: manifest.json, else croissant.json."""

import hashlib
import json
import os
import re
from urllib.parse import urlparse


class LoadError(Exception):
    """A published folder asof_data cannot read: no manifest, no such config or split, no usable file."""


class VerificationError(LoadError):
    """A file whose bytes do not match the sha256 its folder lists, or a file the folder does not list."""

    def __init__(self, message, path=None, expected=None, actual=None):
        super().__init__(message)
        self.path = path
        self.expected = expected
        self.actual = actual


def _normalise(path):
    """A listed path as a relative '/'-separated key: no './' prefix, no backslashes."""
    p = str(path).replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p.lstrip("/")


def _hex(value):
    return str(value).strip().lower() if value is not None else None


class FileList:
    """The files a published folder lists (relative path -> sha256 hex) and which document listed them."""

    def __init__(self, root, source, hashes):
        self.root = root
        self.source = source  # 'manifest.json' or 'croissant.json'
        self.hashes = hashes

    def expected(self, rel):
        """The listed sha256 of `rel`, or raises VerificationError when the folder does not list it."""
        if rel in self.hashes:
            return self.hashes[rel]
        # croissant.json may give contentUrl as a full URL (e.g. a Hugging Face resolve/main/... address).
        suffix = [k for k in self.hashes if k.endswith("/" + rel)]
        if len(suffix) == 1:
            return self.hashes[suffix[0]]
        raise VerificationError(
            f"{rel}: not listed in {self.source}; refusing to read a file the publisher did not list "
            f"(re-download the folder or re-publish it)",
            path=rel,
        )

    def listed_under(self, prefix):
        """Listed relative paths starting with `prefix`."""
        return sorted(k for k in self.hashes if k.startswith(prefix))


def read_file_list(root):
    """The FileList of `root` from manifest.json, or from croissant.json when manifest.json is absent."""
    manifest = os.path.join(root, "manifest.json")
    if os.path.isfile(manifest):
        with open(manifest, encoding="utf-8") as f:
            doc = json.load(f)
        hashes = {}
        outputs = doc.get("outputs") if isinstance(doc, dict) else None
        if not isinstance(outputs, list):
            raise LoadError(f"manifest.json in {root}: no 'outputs' list; is this a folder 'asof publish' wrote?")
        for o in outputs:
            if isinstance(o, dict) and o.get("path"):
                hashes[_normalise(o["path"])] = _hex(o.get("sha256"))
        return FileList(root, "manifest.json", hashes)
    croissant = os.path.join(root, "croissant.json")
    if os.path.isfile(croissant):
        with open(croissant, encoding="utf-8") as f:
            doc = json.load(f)
        hashes = {}
        for d in doc.get("distribution", []) if isinstance(doc, dict) else []:
            if not isinstance(d, dict):
                continue
            url = d.get("contentUrl") or d.get("cr:contentUrl")
            sha = d.get("sha256") or d.get("cr:sha256")
            if not url or not sha:
                continue  # a FileSet (glob) or the repository itself: nothing to check a file against
            if "://" in str(url):
                url = urlparse(str(url)).path
            hashes[_normalise(url)] = _hex(sha)
        return FileList(root, "croissant.json", hashes)
    raise LoadError(
        f"{root}: neither manifest.json nor croissant.json; pass the folder 'asof publish --out DIR' wrote "
        f"(or verify=False to read unverified files)"
    )


_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def verified_bytes(files, rel):
    """The bytes of `rel` (relative to files.root), read once and checked against the listed sha256 before
    anything parses them: the bytes parsed are the bytes checked."""
    expected = files.expected(rel)
    if not expected or not _HEX64.match(expected):
        raise VerificationError(
            f"{rel}: {files.source} lists it without a valid sha256 ({expected!r}); cannot verify it",
            path=rel,
            expected=expected,
        )
    with open(os.path.join(files.root, *rel.split("/")), "rb") as f:
        data = f.read()
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise VerificationError(
            f"{rel}: sha256 mismatch: expected {expected} ({files.source}), actual {actual}; "
            f"the file changed after it was published (re-download it or re-publish the folder)",
            path=rel,
            expected=expected,
            actual=actual,
        )
    return data
