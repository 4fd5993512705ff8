package contactverify

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The library's models are written by hand and held to the service's OpenAPI document here: a
// field, an enum value or an error code the document adds (or drops) fails this test until the
// library follows. The document is $CV_OPENAPI, by default the repository's clients/openapi.json.

type schema struct {
	Ref        string             `json:"$ref"`
	Type       any                `json:"type"`
	Format     string             `json:"format"`
	Enum       []any              `json:"enum"`
	Properties map[string]*schema `json:"properties"`
	Items      *schema            `json:"items"`
	// AdditionalProperties is a schema or a boolean.
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
}

func loadSchemas(t *testing.T) map[string]*schema {
	t.Helper()
	path := os.Getenv("CV_OPENAPI")
	if path == "" {
		path = "../openapi.json"
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the OpenAPI document (CV_OPENAPI): %v", err)
	}
	var doc struct {
		Components struct{ Schemas map[string]*schema }
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Components.Schemas
}

// Each model and the document's schema it mirrors.
var models = []struct {
	schema string
	model  any
	// aliases the document accepts that the library does not offer, on purpose.
	aliases []string
}{
	{"SendCodeRequest", SendCodeRequest{}, []string{"whatsappNumber", "phoneNumber"}}, // other names of phone
	{"SendCodeEntry", SendCodeEntry{}, nil},
	{"SendCodeEntryError", SendCodeEntryError{}, nil},
	{"Risk", Risk{}, nil},
	{"RiskSignal", RiskSignal{}, nil},
	{"VerifyCodeResult", VerifyCodeResult{}, nil},
	{"ApiError", Error{}, nil},
	{"ErrorDetail", ErrorDetail{}, nil},
	{"Health", Health{}, nil},
	{"ChannelHealth", ChannelHealth{}, nil},
	{"ProviderHealth", ProviderHealth{}, nil},
	{"PumpingBreakerCount", PumpingBreakerCount{}, nil},
	{"InstancesHealth", InstancesHealth{}, nil},
	{"CodeSecretRotation", CodeSecretRotation{}, nil},
	{"OutboxMessage", OutboxMessage{}, nil},
	{"SendLink", Link{}, nil},
	{"SilentFallback", SilentFallback{}, nil},
	{"Verification", Verification{}, nil},
	{"VerificationDelivery", Delivery{}, nil},
}

// Each enum type of the library and the document's schema it mirrors.
var enums = map[string]string{
	"Channel": "Channel", "DeliveryType": "DeliveryType", "VerificationStatus": "VerificationStatus",
	"EntryStatus": "SendCodeEntryStatus", "RiskLevel": "RiskLevel", "HealthStatus": "HealthStatus",
	"ServiceState": "ServiceState", "ProviderState": "ProviderState", "LiveCodes": "LiveCodes",
	"ErrorCode": "ErrorCode", "VerificationMethod": "VerificationMethod", "DeliveryState": "DeliveryState",
	"FallbackReason": "FallbackReason",
	// An enum the document spells out inside another schema: the path of the member.
	"SilentOutcome": "VerifyCodeResult.silent.outcome", "FallbackState": "Verification.fallback.state",
}

// schemaAt is a component schema by name, or a member's own schema inside one
// (VerifyCodeResult.silent.outcome).
func schemaAt(schemas map[string]*schema, path string) *schema {
	parts := strings.Split(path, ".")
	s := schemas[parts[0]]
	for _, member := range parts[1:] {
		if s == nil {
			return nil
		}
		s = s.Properties[member]
	}
	return s
}

// libraryOnly are values of the library's own, not the service's.
var libraryOnly = map[string]bool{"ErrorCode.NETWORK_ERROR": true}

func jsonFields(typ reflect.Type) map[string]reflect.StructField {
	fields := map[string]reflect.StructField{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "-" && name != "" {
			fields[name] = f
		}
	}
	return fields
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkFields compares a model's JSON fields with a schema's properties, both ways, and the type
// of each field that is an enum, a timestamp or a nested model.
func checkFields(t *testing.T, schemas map[string]*schema, name string, s *schema, typ reflect.Type, aliases []string) {
	fields := jsonFields(typ)
	skip := map[string]bool{}
	for _, a := range aliases {
		if s.Properties[a] == nil {
			t.Errorf("%s: the alias %q is no longer in the document: drop it from the test", name, a)
		}
		skip[a] = true
	}
	for _, prop := range sortedKeys(s.Properties) {
		if skip[prop] {
			continue
		}
		f, ok := fields[prop]
		if !ok {
			t.Errorf("%s.%s is in the document but not in %s", name, prop, typ.Name())
			continue
		}
		checkType(t, schemas, name+"."+prop, s.Properties[prop], f.Type)
	}
	for _, field := range sortedKeys(fields) {
		if s.Properties[field] == nil {
			t.Errorf("%s.%s (of %s) is not in the document", name, field, typ.Name())
		}
	}
}

func checkType(t *testing.T, schemas map[string]*schema, at string, s *schema, typ reflect.Type) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch {
	case s.Ref != "":
		ref := strings.TrimPrefix(s.Ref, "#/components/schemas/")
		target := schemas[ref]
		if len(target.Enum) > 0 && enums[typ.Name()] != ref {
			t.Errorf("%s is the enum %s in the document, %s in the library", at, ref, typ)
		}
	case s.Format == "date-time" && typ != reflect.TypeOf(time.Time{}):
		t.Errorf("%s is a date-time in the document, %s in the library", at, typ)
	case s.Items != nil && typ.Kind() == reflect.Slice:
		checkType(t, schemas, at+"[]", s.Items, typ.Elem())
	case strings.HasPrefix(string(s.AdditionalProperties), "{") && typ.Kind() == reflect.Map:
		var values schema
		_ = json.Unmarshal(s.AdditionalProperties, &values)
		checkType(t, schemas, at+"{}", &values, typ.Elem())
	case s.Properties != nil && typ.Kind() == reflect.Struct:
		checkFields(t, schemas, at, s, typ, nil)
	}
}

func TestModelsMatchTheDocument(t *testing.T) {
	schemas := loadSchemas(t)
	for _, m := range models {
		s := schemas[m.schema]
		if s == nil {
			t.Errorf("the document has no schema %s", m.schema)
			continue
		}
		checkFields(t, schemas, m.schema, s, reflect.TypeOf(m.model), m.aliases)
	}
}

// libraryConstants reads the package's own source for its typed string constants, per type, so a
// constant cannot be forgotten in a hand-kept list.
func libraryConstants(t *testing.T) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, file := range pkgs["contactverify"].Files {
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				v := spec.(*ast.ValueSpec)
				ident, typed := v.Type.(*ast.Ident)
				if !typed || len(v.Values) != 1 {
					continue
				}
				if lit, ok := v.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					value, _ := strconv.Unquote(lit.Value)
					out[ident.Name] = append(out[ident.Name], value)
				}
			}
		}
	}
	return out
}

func TestEnumsAndErrorCodesMatchTheDocument(t *testing.T) {
	schemas := loadSchemas(t)
	constants := libraryConstants(t)
	for _, goType := range sortedKeys(enums) {
		doc := map[string]bool{}
		s := schemaAt(schemas, enums[goType])
		if s == nil {
			t.Errorf("%s: the document has no %s", goType, enums[goType])
			continue
		}
		for _, v := range s.Enum {
			doc[v.(string)] = true
		}
		lib := map[string]bool{}
		for _, v := range constants[goType] {
			if !libraryOnly[goType+"."+v] {
				lib[v] = true
			}
		}
		for _, v := range sortedKeys(doc) {
			if !lib[v] {
				t.Errorf("%s %q is in the document (%s) but has no constant", goType, v, enums[goType])
			}
		}
		for _, v := range sortedKeys(lib) {
			if !doc[v] {
				t.Errorf("%s %q is a constant but not in the document (%s)", goType, v, enums[goType])
			}
		}
	}
}
