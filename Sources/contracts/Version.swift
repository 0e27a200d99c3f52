/// The version `contracts --version` prints: the contract format and CLI release.
let contractsVersion = "0.2.0"
