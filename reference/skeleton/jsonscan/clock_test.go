package jsonscan

import "time"

func nanotime() int64 { return time.Now().UnixNano() }
