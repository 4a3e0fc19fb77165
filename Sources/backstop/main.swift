print("backstop")
