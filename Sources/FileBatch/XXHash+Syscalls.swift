import CXXHash

// Every call into libxxhash, one thin internal function each (docs/ARCHITECTURE.md: C stays inside one module).

/// XXH3-64 of `bytes` (seed 0). The corresponding C function is `XXH3_64bits`.
func system_XXH3_64bits(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    XXH3_64bits(bytes.baseAddress, bytes.count)
}

/// A streaming XXH3 state. The corresponding C function is `XXH3_createState`; `nil` when it cannot allocate.
func system_XXH3_createState() -> OpaquePointer? {
    XXH3_createState()
}

/// The corresponding C function is `XXH3_freeState`.
func system_XXH3_freeState(_ state: OpaquePointer) {
    _ = XXH3_freeState(state)
}

/// Starts a hash with seed 0. The corresponding C function is `XXH3_64bits_reset`.
func system_XXH3_64bits_reset(_ state: OpaquePointer) -> Bool {
    XXH3_64bits_reset(state) == XXH_OK
}

/// Feeds `bytes`. The corresponding C function is `XXH3_64bits_update`.
func system_XXH3_64bits_update(_ state: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> Bool {
    XXH3_64bits_update(state, bytes.baseAddress, bytes.count) == XXH_OK
}

/// The hash of everything fed. The corresponding C function is `XXH3_64bits_digest`.
func system_XXH3_64bits_digest(_ state: OpaquePointer) -> UInt64 {
    XXH3_64bits_digest(state)
}
