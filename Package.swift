// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SignupRPC",
    products: [
        .library(name: "SignupCore", targets: ["SignupCore"]),
        .executable(name: "signup-rpc", targets: ["SignupRPC"]),
    ],
    targets: [
        .target(name: "SignupCore"),
        .executableTarget(name: "SignupRPC", dependencies: ["SignupCore"]),
        .testTarget(name: "SignupCoreTests", dependencies: ["SignupCore"]),
        .testTarget(name: "SignupRPCTests", dependencies: ["SignupRPC", "SignupCore"]),
    ]
)
