package kasa

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// The module's types against the OpenAPI document (GET /api/openapi.json), as sdks/openapi-snapshot.js flattens it:
// the file named by KASA_OPENAPI_SNAPSHOT (the jest suite writes one), else the script's output when node can run
// it. A test fails when a type drifts from the document: a property the API sends that the struct lacks (or names
// differently in its json tag), a tag the API does not send, a field without omitempty the API may leave out (or one
// with omitempty the API always sends), a Go type of another kind, a status the constants do not know, or a request
// key the API does not accept.

type snapshotProperty struct {
	Required bool              `json:"required"`
	Nullable bool              `json:"nullable"`
	Type     string            `json:"type"`
	Enum     []any             `json:"enum"`
	Shape    string            `json:"shape"`
	Items    *snapshotProperty `json:"items"`
}

type snapshotShape struct {
	Properties map[string]snapshotProperty `json:"properties"`
	Open       bool                        `json:"open"`
}

type openAPISnapshot struct {
	Shapes  map[string]snapshotShape `json:"shapes"`
	Enums   map[string][]any         `json:"enums"`
	Samples map[string]struct {
		Full    json.RawMessage `json:"full"`
		Minimal json.RawMessage `json:"minimal"`
	} `json:"samples"`
}

func loadOpenAPISnapshot(t *testing.T) *openAPISnapshot {
	t.Helper()
	var data []byte
	if path := os.Getenv("KASA_OPENAPI_SNAPSHOT"); path != "" {
		read, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data = read
	} else {
		out, err := exec.Command("node", filepath.Join("..", "openapi-snapshot.js")).Output()
		if err != nil {
			t.Skipf("no KASA_OPENAPI_SNAPSHOT and node could not write one (%v): build shared/contracts first", err)
		}
		data = out
	}
	var snapshot openAPISnapshot
	if err := json.Unmarshal(data, &snapshot); err != nil {
		t.Fatal(err)
	}
	return &snapshot
}

// contractAnswers maps each answer type to the schema it stands for (a component, an inline object of one, or an
// operation's body). Nested structs are checked against the nested schemas they are found under.
var contractAnswers = []struct {
	value any
	shape string
}{
	{User{}, "User"},
	{MeUser{}, "MeUser"},
	{AuthResponse{}, "AuthResponse"},
	{Persona{}, "Persona"},
	{Session{}, "Session"},
	{SessionPage{}, "SessionPage"},
	{StoredMessage{}, "StoredMessage"},
	{MessageVersion{}, "MessageVersion"},
	{AssistantReply{}, "AssistantReply"},
	{SessionWithMessages{}, "SessionWithMessages"},
	{ConversationShare{}, "ConversationShare"},
	{Message{}, "Message"},
	{SharedConversation{}, "SharedConversation"},
	{ModelList{}, "GET /v1/models 200"},
	{LanguageList{}, "LanguageList"},
	{DetectedLanguage{}, "DetectLanguageResponse"},
	{Voice{}, "Voice"},
	{Synthesis{}, "SynthesizeResponse"},
	{GeoLookup{}, "GeoLookupResponse"},
	{CreatedAPIKey{}, "CreateApiKeyResponse"},
	// The status service's answers, without their {"data": ...} envelope.
	{Analytics{}, "AnalyticsResponse.data"},
	{Usage{}, "UsageResponse.data"},
	{AnalyticsSession{}, "AnalyticsSession"},
	{VideoJob{}, "VideoJob"},
	{Attachment{}, "Attachment"},
	// Request parts the caller fills in.
	{DetectHints{}, "DetectLanguageRequest.hints"},
	{ChatMessage{}, "OpenAIChatCompletionRequest.messages[]"},
	{Tool{}, "OpenAIFunctionTool"},
	// The OpenAI-compatible answers.
	{ChatCompletion{}, "OpenAIChatCompletion"},
	{ChatCompletionChunk{}, "OpenAIChatCompletionChunk"},
}

// Not in the table: MessagePage (made by the module from a SessionWithMessages, checked above).

// contractKnownExtra lists tags a struct has on purpose although the document does not list them ("Schema.key").
var contractKnownExtra = map[string]string{}

// contractKnownMissing lists properties of the document a struct leaves out on purpose ("Schema.key").
var contractKnownMissing = map[string]string{
	"OpenAIChatCompletion.choices[].logprobs":      "always null: Kasa gives no log probabilities",
	"OpenAIChatCompletionChunk.choices[].logprobs": "always null: Kasa gives no log probabilities",
}

type jsonField struct {
	name      string
	omitempty bool
	field     reflect.StructField
}

// jsonFields gives a struct's fields as encoding/json sees them (embedded structs' fields included).
func jsonFields(typ reflect.Type) []jsonField {
	var fields []jsonField
	for i := 0; i < typ.NumField(); i++ {
		field := typ.Field(i)
		tag := field.Tag.Get("json")
		if tag == "-" || (!field.IsExported() && !field.Anonymous) {
			continue
		}
		if field.Anonymous && tag == "" && field.Type.Kind() == reflect.Struct {
			fields = append(fields, jsonFields(field.Type)...)
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		if name == "" {
			name = field.Name
		}
		fields = append(fields, jsonField{name: name, omitempty: strings.Contains(options, "omitempty"), field: field})
	}
	return fields
}

var timeType = reflect.TypeOf(time.Time{})

// kindMatches tells whether a Go type can hold the JSON the property describes.
func kindMatches(typ reflect.Type, property snapshotProperty) bool {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	switch property.Type {
	case "any":
		return true
	case "string":
		return typ.Kind() == reflect.String || typ == timeType
	case "integer":
		switch typ.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float64:
			return true
		}
		return false
	case "number":
		return typ.Kind() == reflect.Float64 || typ.Kind() == reflect.Float32 || typ.Kind() == reflect.Int64
	case "boolean":
		return typ.Kind() == reflect.Bool
	case "array":
		return typ.Kind() == reflect.Slice
	case "object":
		return typ.Kind() == reflect.Struct || typ.Kind() == reflect.Map || typ.Kind() == reflect.Interface
	}
	return false
}

func checkStruct(typ reflect.Type, shapeName string, shapes map[string]snapshotShape, problems *[]string) {
	shape, ok := shapes[shapeName]
	if !ok {
		*problems = append(*problems, "the document has no "+shapeName)
		return
	}
	fields := jsonFields(typ)
	seen := map[string]bool{}
	for _, f := range fields {
		seen[f.name] = true
		where := typ.Name() + "." + f.field.Name
		property, known := shape.Properties[f.name]
		if !known {
			if _, allowed := contractKnownExtra[shapeName+"."+f.name]; !allowed && !shape.Open {
				*problems = append(*problems, where+" is "+f.name+", which "+shapeName+" does not have")
			}
			continue
		}
		optional := f.omitempty || f.field.Type.Kind() == reflect.Pointer
		if !property.Required && !optional {
			*problems = append(*problems, where+" ("+f.name+") has no omitempty, but "+shapeName+" may leave it out")
		}
		if property.Required && f.omitempty && !property.Nullable {
			*problems = append(*problems, where+" ("+f.name+") has omitempty, but "+shapeName+" always has it")
		}
		if !kindMatches(f.field.Type, property) {
			*problems = append(*problems, where+" is a "+f.field.Type.String()+", the API sends a "+property.Type)
			continue
		}
		if property.Shape != "" {
			inner := f.field.Type
			for inner.Kind() == reflect.Pointer || inner.Kind() == reflect.Slice {
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct && inner != timeType {
				checkStruct(inner, property.Shape, shapes, problems)
			}
		}
	}
	var missing []string
	for name := range shape.Properties {
		if _, allowed := contractKnownMissing[shapeName+"."+name]; !seen[name] && !allowed {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		*problems = append(*problems, typ.Name()+" lacks "+name+" (in "+shapeName+")")
	}
}

func TestContractTypesMatchTheOpenAPIDocument(t *testing.T) {
	snapshot := loadOpenAPISnapshot(t)
	for _, answer := range contractAnswers {
		typ := reflect.TypeOf(answer.value)
		t.Run(typ.Name(), func(t *testing.T) {
			var problems []string
			checkStruct(typ, answer.shape, snapshot.Shapes, &problems)
			if len(problems) > 0 {
				t.Errorf("%s against %s:\n%s", typ.Name(), answer.shape, strings.Join(problems, "\n"))
			}
			// Every property present with a value of its type, then only the required ones (nulls included).
			sample, ok := snapshot.Samples[answer.shape]
			if !ok {
				return
			}
			for _, raw := range []json.RawMessage{sample.Full, sample.Minimal} {
				if err := json.Unmarshal(raw, reflect.New(typ).Interface()); err != nil {
					t.Errorf("%s cannot hold %s: %v", typ.Name(), raw, err)
				}
			}
		})
	}
}

func enumValues(t *testing.T, snapshot *openAPISnapshot, name string) []string {
	t.Helper()
	values, ok := snapshot.Enums[name]
	if !ok {
		shape, key, _ := strings.Cut(name, ".")
		values = snapshot.Shapes[shape].Properties[key].Enum
	}
	var out []string
	for _, value := range values {
		if text, ok := value.(string); ok {
			out = append(out, text)
		}
	}
	sort.Strings(out)
	return out
}

func TestContractConstantsKnowEveryValueOfTheAPI(t *testing.T) {
	snapshot := loadOpenAPISnapshot(t)
	for name, constants := range map[string][]string{
		"StoredMessage.status": {StatusStreaming, StatusComplete, StatusStopped, StatusFailed},
		"StoredMessage.type":   {MessageTypeText, MessageTypeVoice, MessageTypeImage},
		"ApiKeyScope":          {ScopeChat, ScopeVoice, ScopeAnalytics},
		"AttachmentKind":       {AttachmentImage, AttachmentDocument},
		"VideoJob.status":      {VideoQueued, VideoRunning, VideoSucceeded, VideoFailed},
	} {
		sort.Strings(constants)
		if want := enumValues(t, snapshot, name); !reflect.DeepEqual(constants, want) {
			t.Errorf("%s: the API's values are %v, the constants' %v", name, want, constants)
		}
	}
	// The capabilities a catalogue filter takes are the flags of a language's capabilities.
	var flags []string
	for name := range snapshot.Shapes["LanguageCapabilities"].Properties {
		flags = append(flags, name)
	}
	sort.Strings(flags)
	capabilities := []string{CapabilityChat, CapabilityDetect, CapabilityListen, CapabilitySpeak, CapabilityTranslate}
	if !reflect.DeepEqual(capabilities, flags) {
		t.Errorf("capabilities: the API's are %v, the constants' %v", flags, capabilities)
	}
}

// bodyKeys gives the keys of the JSON object a request body encodes to.
func bodyKeys(t *testing.T, body any) map[string]bool {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	var object map[string]json.RawMessage
	if err := json.Unmarshal(data, &object); err != nil {
		t.Fatalf("%s is not a JSON object: %v", data, err)
	}
	keys := map[string]bool{}
	for key := range object {
		keys[key] = true
	}
	return keys
}

func TestContractRequestBodiesAreOnesTheAPIAccepts(t *testing.T) {
	snapshot := loadOpenAPISnapshot(t)
	temperature := 0.5
	parallel := false
	messages := []ChatMessage{{Role: "user", Content: "Hi"}}
	// Each body with every optional field set (all the keys the module can send) and with none (what it always
	// sends), and the schema of the operation's body.
	for _, c := range []struct {
		name           string
		fullest, least any
		shape          string
	}{
		{"register", RegisterParams{"ama", "ama@example.com", "secret1"}, RegisterParams{}, "RegisterRequest"},
		{"login", LoginParams{"ama@example.com", "secret1"}, LoginParams{}, "LoginRequest"},
		{"create API key", APIKeyCreateParams{Name: "ci", Scopes: []string{ScopeChat}, ExpiresInDays: 30, Team: true}, APIKeyCreateParams{}, "CreateApiKeyRequest"},
		{"create session", SessionCreateParams{PersonaID: "kasa", Title: "Hello"}, SessionCreateParams{}, "CreateSessionRequest"},
		{"send message", MessageParams{Content: "Hi", Type: MessageTypeVoice, Language: "fr", Resumable: true, AttachmentIDs: []string{"AAAAAAAAAAAAAAAAAAAAAA"}}.request("s1", true).body,
			MessageParams{}.request("s1", false).body, "CreateMessageRequest"},
		{"edit message", EditParams{Content: "Hi", Type: MessageTypeVoice, Language: "fr", Resumable: true, AttachmentIDs: []string{"AAAAAAAAAAAAAAAAAAAAAA"}}.post(messagePath("s1", "m1")+"/edit", true).body,
			EditParams{}.post(messagePath("s1", "m1")+"/edit", false).body, "EditMessageRequest"},
		{"regenerate", RegenerateParams{Language: "fr", Resumable: true}.request("s1", "m1", true).body,
			RegenerateParams{}.request("s1", "m1", false).body, "RegenerateRequest"},
		{"detect language", struct {
			Text  string       `json:"text"`
			Hints *DetectHints `json:"hints,omitempty"`
		}{"Bonjour", &DetectHints{UserLanguage: "fr"}}, struct {
			Text string `json:"text"`
		}{}, "DetectLanguageRequest"},
		{"synthesize", SynthesizeParams{Text: "Hello", Voice: "en-US-1", Language: "en"}, SynthesizeParams{}, "SynthesizeRequest"},
		{"create video", VideoParams{Prompt: "A sunrise", Language: "en", Voice: "en-US-1"}, VideoParams{}, "VideoGenerationRequest"},
		{"chat completion", CompletionParams{Model: "kasa", Messages: messages, Temperature: &temperature, MaxTokens: 10, User: "u1", IncludeUsage: true,
			Tools: []Tool{FunctionTool("get_weather", "The weather in a city", map[string]any{"type": "object"})}, ToolChoice: "auto",
			ParallelToolCalls: &parallel, ResponseFormat: &ResponseFormat{Type: "json_object"}}.request(true).body,
			CompletionParams{}.request(false).body, "OpenAIChatCompletionRequest"},
	} {
		t.Run(c.name, func(t *testing.T) {
			shape := snapshot.Shapes[c.shape]
			for key := range bodyKeys(t, c.fullest) {
				if _, ok := shape.Properties[key]; !ok {
					t.Errorf("sends %q, which %s does not accept", key, c.shape)
				}
			}
			least := bodyKeys(t, c.least)
			for key, property := range shape.Properties {
				if property.Required && !least[key] {
					t.Errorf("may leave out %q, which %s requires", key, c.shape)
				}
			}
		})
	}
}

func TestContractCheckFindsADrift(t *testing.T) {
	snapshot := loadOpenAPISnapshot(t)
	type Drifted struct {
		ID       string `json:"id"`
		Status   string `json:"status"`
		Progres  int    `json:"progres"`
		Voice    string `json:"voice"`
		Renderer int    `json:"renderer"`
	}
	var problems []string
	checkStruct(reflect.TypeOf(Drifted{}), "VideoJob", snapshot.Shapes, &problems)
	text := strings.Join(problems, "\n")
	for _, want := range []string{"lacks progress", "is progres, which", "(voice) has no omitempty", "Renderer is a int"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q not found in:\n%s", want, text)
		}
	}
}
