import SignupServer

extension SessionRecorder: SessionMirror {
    /// The recorder of a session that records to a file (`--record`), as the server's sessions
    /// make it (`ServerTools.makeRecorder`).
    package static func recording(_ context: SessionMirrorContext) -> any SessionMirror {
        let recorder = SessionRecorder(
            destination: .file(context.file), configuration: context.configuration, catalog: context.catalog,
            services: context.services, tee: context.tee, logger: context.logger, now: context.now)
        recorder.flushSink = context.handWriterEverything
        recorder.flushAfterWork = context.afterWork
        return recorder
    }
}
