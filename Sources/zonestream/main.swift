print("zonestream")
