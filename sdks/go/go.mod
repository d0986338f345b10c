module github.com/kasa-ai/kasa-go

go 1.22
