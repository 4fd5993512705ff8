module github.com/contact-verify/contact-verify-go

go 1.19
