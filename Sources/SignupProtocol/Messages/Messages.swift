/// Every method a client may call and every notification the server sends, registered once, in
/// the order the protocol's documents list them: the server's dispatch and `SchemaDocuments`
/// read these lists. Adding a method is its type's file (the type, its result and its
/// documentation), a line here, and its handler in the server.
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
        FormValidateRequest.self,
        FormCloseRequest.self,
        ClockAdvanceRequest.self,
    ]

    /// Each method's `parameterRoles`, by method name.
    package static let parameterRoles: [String: [String: ParameterRole]] = Dictionary(
        uniqueKeysWithValues: requests.map { ($0.method, $0.parameterRoles) })

    package static let notifications: [any NotificationType.Type] = [
        FieldChangedNotification.self,
        FieldPresenceChangedNotification.self,
        SubmitEnabledChangedNotification.self,
        SubmissionChangedNotification.self,
    ]
}
