"""Types a username letter by letter into a signup form and prints what a user would see.

    SIGNUP_RPC_BINARY=/path/to/signup-rpc python examples/type_a_name.py [name]

The server runs on the real clock with its built-in directory, where `octocat` is taken: each
keystroke shows `validating` at once, the check runs once typing pauses, and only the latest
name's answer is shown.
"""
import sys

from signup_rpc import Client, FieldChanged, SubmitEnabledChanged


def show(event: object) -> None:
    if isinstance(event, FieldChanged):
        print(f"  {event.field:<16} {event.state:<10} {event.message}")
    elif isinstance(event, SubmitEnabledChanged):
        print(f"  {'[Sign up]':<16} {'enabled' if event.enabled else 'disabled'}")


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "octocat"
    with Client.spawn(args=["--debounce-ms", "300"]) as client:
        client.initialize()
        form = client.open("signup", form="window")
        assert form.description is not None
        print(form.description.title)
        for event in form.pending_events():
            show(event)
        for end in range(1, len(name) + 1):
            print(f"typed {name[:end]!r}")
            form.edit("username", name[:end])
            for event in form.events(quiet=0.05):  # what arrives while the next key is on its way
                show(event)
        print("paused")
        show(form.wait_for(lambda e: isinstance(e, FieldChanged) and e.state != "validating", timeout=10))
        client.shutdown()


if __name__ == "__main__":
    main()
