"""Plug-ins by kind and name: one registry class for formats, environments, verifiers, backends and later stages.

A ``Registry(kind, noun, builtins)`` maps names to objects (usually classes)
from three places:

- built-ins, declared in code as lazy ``"module:attr"`` paths and imported on
  first use, so listing names or ``aceforge --help`` imports nothing heavy;
- code, through ``register(name, obj_or_path)`` (a test double, a notebook);
- installed distributions, through the Python entry-point group
  ``aceforge.<kind>`` (``[project.entry-points."aceforge.formats"]`` in a
  plug-in's pyproject.toml): a package adds a format or an environment without
  editing aceforge.

aceforge's own built-ins stay in code rather than in its pyproject.toml entry
points: entry points are install metadata, rewritten only by a reinstall, so a
built-in added to a source checkout would otherwise be missing until then.

A name has one owner: a second, different declaration of a name is an error
that names both, raised when that name is used (other names keep working).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
GROUP_PREFIX = "aceforge."


class PluginError(Exception):
    """A plug-in that cannot be used; the message says which one and why."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""  # KeyError alone would print the message quoted


class UnknownPluginError(PluginError, KeyError, ValueError):
    """No plug-in of this kind has the name: a KeyError to lookups, a ValueError to config validators."""


class PluginLoadError(PluginError, ImportError):
    """A declared plug-in failed to import, or is not what its kind requires."""


def path_of(obj: Any) -> str | None:
    """The ``"module:attr"`` path of a class or function (None for other objects)."""
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"{module}:{qualname}" if isinstance(module, str) and isinstance(qualname, str) else None


def import_path(path: str) -> Any:
    """The object at ``"package.module:attr.sub"``."""
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"{path!r} is not a 'module:attr' path")
    obj = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass
class _Entry:
    origin: str  # who declared the name, for error messages
    path: str | None  # the declared "module:attr" (for an entry point, its value)
    point: Any = None  # an importlib.metadata.EntryPoint: loaded with its own load()
    obj: Any = None
    loaded: bool = False
    clash: str | None = None  # the origin of a second, different declaration of the same name

    def declares(self, obj_or_path: Any) -> bool:
        """Whether ``obj_or_path`` is what this entry stands for: the same object or the same path."""
        if self.loaded and self.obj is obj_or_path:
            return True
        path = obj_or_path if isinstance(obj_or_path, str) else path_of(obj_or_path)
        return path is not None and path == (self.path or path_of(self.obj))


def named_subclass(base: type) -> Callable[[str, Any], None]:
    """A check for kinds whose plug-ins are ``base`` subclasses that carry their registry name in ``name``."""

    def check(name: str, obj: Any) -> None:
        if not (isinstance(obj, type) and issubclass(obj, base)):
            raise TypeError(f"{obj!r} is not a subclass of {base.__module__}.{base.__qualname__}")
        if getattr(obj, "name", None) != name:
            raise TypeError(f"{obj.__qualname__}.name is {getattr(obj, 'name', None)!r}, expected {name!r}")

    return check


class Registry(Generic[T]):
    """The plug-ins of one kind (``formats``, ``environments``, ...) by name."""

    def __init__(
        self,
        kind: str,
        noun: str,
        builtins: Mapping[str, str] | None = None,
        *,
        group: str | None = None,
        check: Callable[[str, Any], None] | None = None,
    ):
        self.kind = kind
        self.noun = noun  # singular, for messages: "unknown format 'x'; known formats: ..."
        self.group = group or GROUP_PREFIX + kind
        self._check = check
        self._entries = {name: _Entry("built into aceforge", path) for name, path in (builtins or {}).items()}
        self._discovered = False

    def register(self, name: str, obj_or_path: T | str) -> None:
        """Add a plug-in from code: the object, or a lazy ``"module:attr"`` path to it.

        Registering what a name already stands for is a no-op (e.g. a built-in module that
        registers itself while its declaration loads); anything else under a taken name is an error.
        """
        entry = self._entries.get(name)
        if entry is not None and not entry.declares(obj_or_path):
            raise ValueError(f"{self.noun} {name!r} is already registered ({entry.origin})")
        if isinstance(obj_or_path, str):
            self._entries.setdefault(name, _Entry("registered in code", obj_or_path))
            return
        if entry is not None and entry.loaded:
            return
        self._run_check(name, obj_or_path, entry.origin if entry else "registered in code")
        if entry is None:
            entry = self._entries[name] = _Entry("registered in code", None)
        entry.obj, entry.loaded = obj_or_path, True

    def unregister(self, name: str) -> None:
        """Forget a name (a test's double, say); unknown names are ignored."""
        self._entries.pop(name, None)

    def names(self) -> list[str]:
        """Every known name, sorted, without importing any plug-in."""
        self._discover()
        return sorted(self._entries)

    def get(self, name: str) -> T:
        """The plug-in called ``name``, imported on first use."""
        self._discover()
        entry = self._entries.get(name)
        if entry is None:
            known = ", ".join(self.names()) or "none"
            raise UnknownPluginError(f"unknown {self.noun} {name!r}; known {self.kind}: {known}")
        if entry.clash:
            raise PluginLoadError(f"{self.noun} {name!r} is declared twice: {entry.origin}; and {entry.clash}")
        if not entry.loaded:
            entry.obj, entry.loaded = self._load(name, entry), True
        return entry.obj

    def load_all(self) -> dict[str, T]:
        """Every plug-in by name, sorted (imports all of them)."""
        return {name: self.get(name) for name in self.names()}

    def __contains__(self, name: object) -> bool:
        self._discover()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def _discover(self) -> None:
        """Read the entry-point group once: installed distributions' metadata, no plug-in imported."""
        if self._discovered:
            return
        self._discovered = True
        from importlib.metadata import entry_points  # ~30 ms: only when a registry is first asked

        for point in entry_points(group=self.group):
            dist = f"{point.dist.name} {point.dist.version}" if point.dist else "an unnamed distribution"
            origin = f"entry point '{point.name} = {point.value}' in group {self.group} of distribution {dist}"
            entry = self._entries.get(point.name)
            if entry is None:
                self._entries[point.name] = _Entry(origin, point.value, point)
            elif not entry.declares(point.value):
                entry.clash = origin

    def _load(self, name: str, entry: _Entry) -> T:
        try:
            obj = entry.point.load() if entry.point is not None else import_path(entry.path)
        except Exception as exc:  # a broken plug-in must say which one it is
            raise PluginLoadError(
                f"{self.noun} {name!r} ({entry.origin}) failed to load: {type(exc).__name__}: {exc}"
            ) from exc
        self._run_check(name, obj, entry.origin)
        return obj

    def _run_check(self, name: str, obj: Any, origin: str) -> None:
        if self._check is None:
            return
        try:
            self._check(name, obj)
        except (TypeError, ValueError) as exc:
            raise PluginLoadError(f"{self.noun} {name!r} ({origin}) is not a valid {self.noun}: {exc}") from exc
