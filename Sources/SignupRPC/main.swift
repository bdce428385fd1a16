print("signup-rpc: not yet")
