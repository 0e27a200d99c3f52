print("contracts")
