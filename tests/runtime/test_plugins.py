"""The plug-in registry: lazy built-ins, code registration, entry points of installed distributions, its errors."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

from runtime.plugins import PluginLoadError, Registry, UnknownPluginError, named_subclass


class Widget:
    name = "gear"


class OtherWidget:
    name = "gear"


@pytest.fixture
def widget_base(tmp_path, monkeypatch) -> type:
    """Importable modules in tmp_path: ``probe_base`` (a Widget base), ``probe_widgets`` (its subclasses), a broken one."""
    (tmp_path / "probe_base.py").write_text("class Widget:\n    name = ''\n")
    (tmp_path / "probe_widgets.py").write_text(
        textwrap.dedent(
            """
            from probe_base import Widget

            class Lever(Widget):
                name = "lever"

            class Misnamed(Widget):
                name = "something_else"
            """
        )
    )
    (tmp_path / "probe_broken.py").write_text("raise RuntimeError('the plug-in is broken')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in ("probe_base", "probe_widgets", "probe_broken"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    return importlib.import_module("probe_base").Widget


def test_builtins_are_imported_only_when_asked_for(widget_base):
    widgets = Registry("test_widgets", "widget", {"lever": "probe_widgets:Lever"}, check=named_subclass(widget_base))
    assert widgets.names() == ["lever"] and "lever" in widgets and list(widgets) == ["lever"]
    assert "probe_widgets" not in sys.modules
    lever = widgets.get("lever")
    assert lever.__name__ == "Lever" and "probe_widgets" in sys.modules
    assert widgets.get("lever") is lever


def test_an_unknown_name_lists_the_known_ones_as_key_and_value_error():
    widgets = Registry("test_widgets", "widget", {"lever": "probe_widgets:Lever", "cog": "probe_widgets:Cog"})
    with pytest.raises(UnknownPluginError) as caught:
        widgets.get("sprocket")
    assert str(caught.value) == "unknown widget 'sprocket'; known test_widgets: cog, lever"
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, ValueError)


def test_code_registration_owns_its_name():
    widgets = Registry("test_widgets", "widget", check=named_subclass(Widget))
    widgets.register("gear", Widget)
    widgets.register("gear", Widget)  # the same object again: nothing to do
    assert widgets.get("gear") is Widget
    with pytest.raises(ValueError, match="widget 'gear' is already registered \\(registered in code\\)"):
        widgets.register("gear", OtherWidget)
    widgets.unregister("gear")
    assert "gear" not in widgets
    with pytest.raises(PluginLoadError, match="not a subclass of tests.runtime.test_plugins.Widget"):
        widgets.register("gear", OtherWidget)
    assert "gear" not in widgets  # a rejected object leaves no entry behind


def test_a_broken_or_wrong_builtin_is_a_load_error_that_names_it(widget_base):
    widgets = Registry(
        "test_widgets",
        "widget",
        {"crank": "probe_broken:Crank", "misnamed": "probe_widgets:Misnamed", "typo": "probe_widgets:Levr"},
        check=named_subclass(widget_base),
    )
    with pytest.raises(PluginLoadError) as caught:
        widgets.get("crank")
    assert str(caught.value) == (
        "widget 'crank' (built into aceforge) failed to load: RuntimeError: the plug-in is broken"
    )
    assert isinstance(caught.value, ImportError)
    with pytest.raises(PluginLoadError, match="Misnamed.name is 'something_else', expected 'misnamed'"):
        widgets.get("misnamed")
    with pytest.raises(PluginLoadError, match="has no attribute 'Levr'"):
        widgets.get("typo")


def install_dist_info(site, name: str, version: str, entry_points: str) -> None:
    """What pip leaves behind for an installed distribution: its .dist-info with METADATA and entry_points.txt."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))


def test_installed_distributions_add_plugins_through_entry_points(widget_base, tmp_path, monkeypatch):
    site = tmp_path / "site"
    install_dist_info(
        site,
        "widget-pack",
        "1.2",
        """
        [aceforge.test_widgets]
        lever = probe_widgets:Lever
        crank = probe_broken:Crank
        gear = probe_widgets:Lever

        [aceforge.other_kind]
        ignored = probe_widgets:Lever
        """,
    )
    monkeypatch.syspath_prepend(str(site))
    widgets = Registry("test_widgets", "widget", {"gear": "probe_base:Widget"})
    assert widgets.group == "aceforge.test_widgets"
    assert widgets.names() == ["crank", "gear", "lever"]
    assert widgets.get("lever").__module__ == "probe_widgets"
    with pytest.raises(PluginLoadError) as caught:
        widgets.get("crank")
    assert str(caught.value) == (
        "widget 'crank' (entry point 'crank = probe_broken:Crank' in group aceforge.test_widgets of distribution "
        "widget-pack 1.2) failed to load: RuntimeError: the plug-in is broken"
    )
    with pytest.raises(PluginLoadError) as clash:
        widgets.get("gear")
    assert str(clash.value) == (
        "widget 'gear' is declared twice: built into aceforge; and entry point 'gear = probe_widgets:Lever' "
        "in group aceforge.test_widgets of distribution widget-pack 1.2"
    )


def test_an_entry_point_that_repeats_a_declaration_is_no_clash(widget_base, tmp_path, monkeypatch):
    site = tmp_path / "site"
    install_dist_info(site, "widget-pack", "1.2", "[aceforge.test_widgets]\nlever = probe_widgets:Lever\n")
    monkeypatch.syspath_prepend(str(site))
    widgets = Registry("test_widgets", "widget", {"lever": "probe_widgets:Lever"})
    assert widgets.get("lever").__name__ == "Lever"
