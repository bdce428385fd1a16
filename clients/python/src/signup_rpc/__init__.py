"""A typed client for signup-rpc, the headless form-validation engine.

    from signup_rpc import Client

    with Client.spawn(args=["--clock", "virtual"]) as client:
        client.initialize()
        form = client.open("signup")
        form.edit("username", "octocat")
        client.advance_clock(by=500)
        for event in form.pending_events():
            print(event)

`AsyncClient` is the same for asyncio. See README.md.
"""
from ._messages import (ConnectionClosed, Event, FieldChanged, FieldDescription, FieldPresenceChanged, FieldSnapshot, FieldVerdict, FormDescription,
                        RemoteCheckDescription, RequirementDescription, RPCError, ServerInfo, Snapshot, SubmissionChanged,
                        SubmissionStateDescription, SubmitEnabledChanged, SubmitResult, Validation, Issue)
from .aio import AsyncClient, AsyncForm
from .client import Client, Form, find_binary

__all__ = [
    "AsyncClient", "AsyncForm", "Client", "ConnectionClosed", "Event", "FieldChanged", "FieldDescription", "FieldPresenceChanged",
    "FieldSnapshot", "FieldVerdict", "Form", "Issue", "FormDescription", "RemoteCheckDescription", "RequirementDescription", "RPCError", "ServerInfo", "Snapshot",
    "SubmissionChanged",
    "SubmissionStateDescription", "SubmitEnabledChanged", "SubmitResult", "Validation", "find_binary",
]
__version__ = "0.1.0"
