(;GM[1]FF[4]CA[UTF-8]AP[duiyi:0.1.0]SZ[9]RU[Chinese]KM[7.5])
