"""Drives the official Python client (python-zulip-api) against a server, for
test/clients/python-zulip-api.test.ts: argv[1] is a zuliprc, argv[2] the JSON ids of the
messages to read, argv[3] a JPEG file to upload, argv[4] an administrator's zuliprc (for Zulip's
export examples). Prints one JSON object of what the client got back; any exception
the client raises ends the script with its traceback on stderr."""

import json
import sys

import zulip


def main() -> None:
    client = zulip.Client(config_file=sys.argv[1], client="RookeryClientTest/1.0")
    ids = json.loads(sys.argv[2])
    out = {}

    registered = client.register(event_types=["message", "realm"], apply_markdown=True, client_gravatar=True)
    out["register"] = {
        "result": registered["result"],
        "has_queue": isinstance(registered.get("queue_id"), str),
        "realm_enable_read_receipts": registered.get("realm_enable_read_receipts"),
        "realm_inline_image_preview": registered.get("realm_inline_image_preview"),
        "zulip_feature_level": registered.get("zulip_feature_level"),
    }

    history = client.get_messages({"anchor": "newest", "num_before": 100, "num_after": 0, "apply_markdown": True})
    by_id = {m["id"]: m for m in history["messages"]}
    out["get_messages"] = {
        "result": history["result"],
        "count": len(history["messages"]),
        "found_newest": history["found_newest"],
        "content": {name: by_id[i]["content"] for name, i in ids.items() if i in by_id},
        "senders": {name: by_id[i]["sender_full_name"] for name, i in ids.items() if i in by_id},
    }

    raw = client.get_raw_message(ids["linkified"], apply_markdown=False)
    out["raw"] = {"result": raw["result"], "content": raw["message"]["content"]}

    receipts = client.call_endpoint(url=f"messages/{ids['image']}/read_receipts", method="GET")
    out["read_receipts"] = receipts

    sent = client.send_message({"type": "stream", "to": "Verona", "topic": "from python", "content": "#9 and a look http://example.invalid/x.png"})
    events = client.get_events(queue_id=registered["queue_id"], last_event_id=registered["last_event_id"], dont_block=True)
    out["events"] = [
        {"type": e["type"], "id": e["message"]["id"], "content": e["message"]["content"]} for e in events["events"] if e["type"] == "message"
    ]
    out["sent"] = sent["id"]
    # As Zulip's upload_custom_emoji example: a file part without a Content-Type.
    with open(sys.argv[3], "rb") as fp:
        out["emoji"] = client.call_endpoint("realm/emoji/verona_sun", method="POST", files=[fp])
    with open(sys.argv[3], "rb") as fp:
        uploaded = client.upload_file(fp)
    out["upload"] = {"result": uploaded["result"], "url": uploaded.get("url")}
    out["realm_emoji"] = sorted(e["name"] for e in client.get_realm_emoji()["emoji"].values())
    # Zulip's get_realm_exports and export_realm examples, as the administrator; the member is refused.
    admin = zulip.Client(config_file=sys.argv[4], client="RookeryClientTest/1.0")
    out["exports_before"] = admin.call_endpoint(url="/export/realm", method="GET")
    out["export"] = admin.call_endpoint(url="/export/realm", method="POST")
    out["exports_after"] = admin.call_endpoint(url="/export/realm", method="GET")
    out["export_as_member"] = client.call_endpoint(url="/export/realm", method="POST")
    client.deregister(registered["queue_id"])
    print(json.dumps(out))


main()
