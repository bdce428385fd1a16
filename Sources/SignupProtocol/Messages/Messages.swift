/// Every method a client may call, registered once: the server's dispatch, the schema drift
/// test and the documents are all read from this list. Adding a method is its type's file, a
/// line here and its handler in the server.
package enum Messages {
    package static let requests: [any RequestType.Type] = [
        InitializeRequest.self,
        InitializedNotification.self,
        ShutdownRequest.self,
        ExitNotification.self,
        FormOpenRequest.self,
        FormEditRequest.self,
        FormSubmitRequest.self,
        FormSnapshotRequest.self,
        FormCloseRequest.self,
        FormValidateRequest.self,
        ClockAdvanceRequest.self,
    ]
}
