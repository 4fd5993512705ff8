//go:build ignore

// The program around the Go row of the main README's client table (test/clients.readme-snippets):
// the row replaces the marked line below and must print "verified". The row sends and
// verifies in one line, so the code has to be known between its two calls: the client's injected
// HTTP client reads it from the outbox (test-mode key) as soon as the send is answered.
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	contactverify "github.com/contact-verify/contact-verify-go"
)

var otpCode string

type codeReader struct{ email string }

func (c codeReader) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && req.URL.Path == "/v1/contact/send-code" && res.StatusCode == http.StatusOK {
		outbox := contactverify.NewTestOutbox(os.Getenv("CV_BASE_URL"), os.Getenv("CV_ADMIN_TOKEN"))
		if otpCode, err = outbox.LatestOutboxCode(req.Context(), c.email); err != nil {
			log.Fatal(err)
		}
	}
	return res, err
}

func main() {
	ctx := context.Background()
	email := fmt.Sprintf("readme-row-go-%d@example.com", time.Now().UnixNano())
	cv := contactverify.New(os.Getenv("CV_BASE_URL"), os.Getenv("CV_API_KEY"),
		contactverify.WithHTTPClient(&http.Client{Transport: codeReader{email}}))

	// README_ROW
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.Status)
}
