extension UInt8 {
    /// The value of this byte as an ASCII hexadecimal digit (`0-9`, `A-F`, `a-f`), or nil.
    package var hexDigitValue: UInt8? {
        switch self {
        case 0x30...0x39: return self - 0x30
        case 0x41...0x46: return self - 0x41 + 10
        case 0x61...0x66: return self - 0x61 + 10
        default: return nil
        }
    }
}
