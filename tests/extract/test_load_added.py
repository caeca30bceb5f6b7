"""Parameters n8n adds to a field list when it loads a node, each under the description
traits it depends on (pygen.extract.load_added)."""

from __future__ import annotations

from typing import Any

from pygen.extract.load_added import with_load_added

OWN = [{"name": "folder", "type": "string", "default": ""}]
OPTIONS = {"name": "options", "type": "collection", "default": {},
           "options": [{"name": "rawBody", "type": "boolean", "default": False}]}


def names(descriptors: list[Any]) -> list[str]:
    return [d["name"] for d in descriptors]


def test_a_polling_node_gets_poll_times_first() -> None:
    out = with_load_added(OWN, {"polling": True, "execute": False}, "n8n")
    assert names(out) == ["pollTimes", "folder"]
    assert out[0]["type"] == "fixedCollection"
    assert [v["name"] for v in out[0]["options"][0]["values"]][:3] == ["mode", "hour", "minute"]


def test_a_cors_webhook_gets_allowed_origins_inside_its_options() -> None:
    out = with_load_added([*OWN, OPTIONS], {"webhook": True, "supports_cors": True}, "n8n")
    assert names(out) == ["folder", "options"]
    assert names(out[1]["options"]) == ["allowedOrigins", "rawBody"]


def test_a_cors_webhook_without_options_gets_it_top_level() -> None:
    out = with_load_added(OWN, {"webhook": True, "supports_cors": True}, "n8n")
    assert names(out) == ["folder", "allowedOrigins"]


def test_a_webhook_without_cors_gets_nothing() -> None:
    assert with_load_added(OWN, {"webhook": True}, "n8n") == OWN


def test_a_declarative_node_gets_request_options_merged_with_its_own() -> None:
    own = [*OWN, {"name": "requestOptions", "type": "collection", "default": {},
                  "options": [{"name": "retries", "type": "number", "default": 0}]}]
    out = with_load_added(own, {"execute": False, "trigger": False}, "n8n")
    assert names(out) == ["folder", "requestOptions"]
    assert names(out[1]["options"]) == ["batching", "allowUnauthorizedCerts", "proxy",
                                        "timeout", "retries"]
    assert names(with_load_added(OWN, {"execute": False}, "n8n")) == ["folder",
                                                                       "requestOptions"]


def test_a_programmatic_node_or_a_sub_node_gets_no_request_options() -> None:
    assert with_load_added(OWN, {"execute": True}, "n8n") == OWN
    assert with_load_added(OWN, {"sub_node": True}, "n8n") == OWN


def test_nothing_is_added_without_traits_or_for_another_preset() -> None:
    assert with_load_added(OWN, None, "n8n") == OWN
    assert with_load_added(OWN, {"polling": True}, "flowise") == OWN
    assert with_load_added(OWN, {"polling": True}, None) == OWN
