/// The backends a form pipeline talks to. One object may play several roles.
public struct FormServices {
    public var availability: any UsernameAvailabilityChecking
    public var registration: any AccountRegistering

    public init(availability: any UsernameAvailabilityChecking, registration: any AccountRegistering) {
        self.availability = availability
        self.registration = registration
    }

    /// Both roles played by one directory.
    public init(directory: some UsernameAvailabilityChecking & AccountRegistering) {
        self.init(availability: directory, registration: directory)
    }
}
