// Command scenario runs clients/scenario.json with this library against a running service
// (see clients/README.md); it exits 0 when every step passed.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	contactverify "github.com/contact-verify/contact-verify-go"
)

type step struct {
	Name    string            `json:"name"`
	Op      string            `json:"op"`
	Client  string            `json:"client"`
	Retries *int              `json:"retries"`
	Args    map[string]any    `json:"args"`
	Expect  map[string]any    `json:"expect"`
	Save    map[string]string `json:"save"`
}

var vars = map[string]string{"lang": "go", "runId": os.Getenv("CV_RUN_ID")}
var placeholder = regexp.MustCompile(`\{(\w+)\}`)

func expand(v any) any {
	switch t := v.(type) {
	case string:
		return placeholder.ReplaceAllStringFunc(t, func(m string) string {
			if value, ok := vars[m[1:len(m)-1]]; ok {
				return value
			}
			return m
		})
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = expand(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			out[k] = expand(e)
		}
		return out
	}
	return v
}

func mismatch(expected, actual any, at string) string {
	switch e := expected.(type) {
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return fmt.Sprintf("%s: expected a list of %d, got %v", at, len(e), actual)
		}
		for i := range e {
			if m := mismatch(e[i], a[i], fmt.Sprintf("%s[%d]", at, i)); m != "" {
				return m
			}
		}
		return ""
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected an object, got %v", at, actual)
		}
		for k, v := range e {
			if m := mismatch(v, a[k], at+"."+k); m != "" {
				return m
			}
		}
		return ""
	}
	if !reflect.DeepEqual(expected, actual) {
		return fmt.Sprintf("%s: expected %v, got %v", at, expected, actual)
	}
	return ""
}

func pick(data any, path string) any {
	path = regexp.MustCompile(`\[(\d+)\]`).ReplaceAllString(path, ".$1")
	for _, key := range strings.Split(path, ".") {
		if key == "" {
			continue
		}
		switch t := data.(type) {
		case []any:
			i, _ := strconv.Atoi(key)
			data = t[i]
		case map[string]any:
			data = t[key]
		default:
			return nil
		}
	}
	return data
}

// asJSON turns a typed answer into the API's JSON shape for comparison with the scenario.
func asJSON(v any) any {
	raw, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func outboxCode(pattern, to string) (any, error) {
	req, _ := http.NewRequest(http.MethodGet, os.Getenv("CV_BASE_URL")+"/v1/admin/outbox?to="+url.QueryEscape(to), nil)
	req.Header.Set("Authorization", "Bearer "+os.Getenv("CV_ADMIN_TOKEN"))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var body struct{ Data []struct{ Text string } }
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return nil, err
	}
	text := ""
	if len(body.Data) > 0 {
		text = body.Data[0].Text
	}
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		return nil, fmt.Errorf("no code in the outbox for %s", to)
	}
	return map[string]any{"code": m[1]}, nil
}

func run(s step, pattern string, clients map[string]*contactverify.Client, outbox *contactverify.TestOutbox) error {
	ctx := context.Background()
	name := s.Client
	if name == "" {
		name = "default"
	}
	client := clients[name]
	args, _ := expand(s.Args).(map[string]any)
	var opts []func(*contactverify.Options)
	if s.Retries != nil {
		opts = append(opts, contactverify.WithMaxRetries(*s.Retries))
	}
	var data any
	var err error
	switch s.Op {
	case "health":
		data, err = client.Health(ctx, opts...)
	case "sendCode":
		req := contactverify.SendCodeRequest{
			Channel: contactverify.Channel(str(args, "channel")), Email: str(args, "email"), Phone: str(args, "phone"),
			Country: str(args, "country"), DeliveryType: contactverify.DeliveryType(str(args, "deliveryType")),
			Purpose: str(args, "purpose"), CustomMessage: str(args, "customMessage"), Locale: str(args, "locale"),
			IdempotencyKey: str(args, "idempotencyKey"), Fallback: contactverify.Channel(str(args, "fallback")),
		}
		if link, ok := args["link"].(map[string]any); ok {
			req.Link = &contactverify.Link{RedirectURL: str(link, "redirectUrl")}
		}
		if list, ok := args["channels"].([]any); ok {
			for _, c := range list {
				req.Channels = append(req.Channels, contactverify.Channel(c.(string)))
			}
			data, err = client.SendCodeDual(ctx, req, opts...)
		} else {
			data, err = client.SendCode(ctx, req, opts...)
		}
	case "verifyCode":
		data, err = client.VerifyCode(ctx, str(args, "requestId"), str(args, "otpCode"), opts...)
	case "getVerification":
		data, err = client.GetVerification(ctx, str(args, "requestId"), opts...)
	case "cancelVerification":
		data, err = client.CancelVerification(ctx, str(args, "requestId"), opts...)
	case "latestOutboxCode":
		var code string
		if code, err = outbox.LatestOutboxCode(ctx, str(args, "to")); err == nil {
			data = map[string]any{"code": code}
		}
	case "outboxCode":
		data, err = outboxCode(pattern, str(args, "to"))
	default:
		return fmt.Errorf("unknown op %q", s.Op)
	}
	if want, ok := s.Expect["error"].(map[string]any); ok {
		var apiErr *contactverify.Error
		if !errors.As(err, &apiErr) {
			return fmt.Errorf("expected %v, got %v", want["code"], err)
		}
		if float64(apiErr.Status) != want["status"].(float64) || string(apiErr.Code) != want["code"] {
			return fmt.Errorf("expected %v %v, got %d %s", want["status"], want["code"], apiErr.Status, apiErr.Code)
		}
		if least, ok := want["retryAfterAtLeast"].(float64); ok && apiErr.RetryAfter.Seconds() < least {
			return fmt.Errorf("expected RetryAfter >= %vs, got %v", least, apiErr.RetryAfter)
		}
		return nil
	}
	if err != nil {
		return err
	}
	answer := asJSON(data)
	if ok, present := s.Expect["ok"]; present {
		if m := mismatch(expand(ok), answer, "data"); m != "" {
			return errors.New(m)
		}
	}
	if present, ok := s.Expect["present"].([]any); ok {
		for _, path := range present {
			if pick(answer, path.(string)) == nil {
				return fmt.Errorf("data.%v: expected a value, got none", path)
			}
		}
	}
	for name, path := range s.Save {
		vars[name] = fmt.Sprint(pick(answer, path))
	}
	return nil
}

func main() {
	raw, err := os.ReadFile(os.Getenv("CV_SCENARIO"))
	if err != nil {
		panic(err)
	}
	var scenario struct {
		CodePattern string            `json:"codePattern"`
		Vars        map[string]string `json:"vars"`
		Steps       []step            `json:"steps"`
	}
	if err := json.Unmarshal(raw, &scenario); err != nil {
		panic(err)
	}
	for k, v := range scenario.Vars {
		vars[k] = expand(v).(string)
	}
	base := os.Getenv("CV_BASE_URL")
	clients := map[string]*contactverify.Client{
		"default": contactverify.New(base, os.Getenv("CV_API_KEY")),
		"badKey":  contactverify.New(base, "cv_live_not_a_real_key_000000000000"),
		"stub":    contactverify.New(os.Getenv("CV_STUB_URL"), os.Getenv("CV_API_KEY")),
		"test":    contactverify.New(base, os.Getenv("CV_TEST_API_KEY")),
	}
	outbox := contactverify.NewTestOutbox(base, os.Getenv("CV_ADMIN_TOKEN"))
	failed := 0
	for _, s := range scenario.Steps {
		if err := run(s, scenario.CodePattern, clients, outbox); err != nil {
			failed++
			fmt.Printf("FAIL %s: %v\n", s.Name, err)
		} else {
			fmt.Printf("ok   %s\n", s.Name)
		}
	}
	fmt.Printf("%d passed, %d failed\n", len(scenario.Steps)-failed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
