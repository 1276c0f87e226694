module fixture

go 1.26.0
