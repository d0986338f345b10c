package kasa

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

func readEvents(t *testing.T, r io.Reader, limit int) ([]ServerSentEvent, error) {
	t.Helper()
	reader := NewSSEReader(r, limit)
	var events []ServerSentEvent
	for {
		event, err := reader.Next()
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		events = append(events, event)
	}
}

func TestReadsNamedEventsJoinsDataLinesAndSkipsComments(t *testing.T) {
	stream := ": ping\n\nevent: meta\ndata: {\"a\":1}\n\ndata: first\ndata: second\nid: 7\n\nevent: token\ndata:no space\n\n"
	events, err := readEvents(t, strings.NewReader(stream), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []ServerSentEvent{
		{Event: "meta", Data: `{"a":1}`},
		{Event: "message", Data: "first\nsecond", ID: "7"},
		{Event: "token", Data: "no space", ID: "7"},
	}
	if !reflect.DeepEqual(events, want) {
		t.Fatalf("events = %#v", events)
	}
}

func TestReadsLinesEndingWithCRLFOrCRAlone(t *testing.T) {
	events, err := readEvents(t, strings.NewReader("data: a\r\n\r\ndata: b\r\rdata: c\n\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 3 || events[0].Data != "a" || events[1].Data != "b" || events[2].Data != "c" {
		t.Fatalf("events = %#v", events)
	}
}

func TestPutsBackTogetherWhatArrivesOneByteAtATime(t *testing.T) {
	stream := "\xEF\xBB\xBFevent: token\r\ndata: {\"text\":\"Ɛte sɛn?\"}\r\n\r\nevent: done\ndata: {}\n\n"
	events, err := readEvents(t, iotest.OneByteReader(strings.NewReader(stream)), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []ServerSentEvent{{Event: "token", Data: `{"text":"Ɛte sɛn?"}`}, {Event: "done", Data: "{}"}}
	if !reflect.DeepEqual(events, want) {
		t.Fatalf("events = %#v", events)
	}
}

func TestDispatchesAnEventWithEmptyDataButNotOneWithoutData(t *testing.T) {
	events, err := readEvents(t, strings.NewReader("event: nothing\n\ndata:\n\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(events, []ServerSentEvent{{Event: "message", Data: ""}}) {
		t.Fatalf("events = %#v", events)
	}
}

func TestDropsAnEventTheStreamEndsWithoutABlankLineAfter(t *testing.T) {
	events, err := readEvents(t, strings.NewReader("data: whole\n\ndata: cut off\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].Data != "whole" {
		t.Fatalf("events = %#v", events)
	}
	events, err = readEvents(t, strings.NewReader("data: whole\n\ndata: no line end"), 0)
	if err != nil || len(events) != 1 {
		t.Fatalf("events = %#v, %v", events, err)
	}
}

func TestIgnoresAnIDWithANulAndUnknownFields(t *testing.T) {
	events, err := readEvents(t, strings.NewReader("id: 1\nretry: 10\nfoo: bar\ndata: x\n\nid: a\x00b\ndata: y\n\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if events[0].ID != "1" || events[1].ID != "1" {
		t.Fatalf("events = %#v", events)
	}
}

func TestRefusesALineLongerThanTheLimit(t *testing.T) {
	long := "data: " + strings.Repeat("x", 100) + "\n\n"
	_, err := readEvents(t, strings.NewReader("data: short\n\n"+long), 64)
	if !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("err = %v", err)
	}
	// A line of exactly the limit is fine.
	exact := "data: " + strings.Repeat("x", 58) + "\n\n"
	if events, err := readEvents(t, strings.NewReader(exact), 64); err != nil || len(events) != 1 {
		t.Fatalf("events = %d, %v", len(events), err)
	}
}

func TestRefusesAnEventWhoseDataLinesAddUpBeyondTheLimit(t *testing.T) {
	stream := strings.Repeat("data: "+strings.Repeat("y", 40)+"\n", 10) + "\n"
	_, err := readEvents(t, strings.NewReader(stream), 64)
	if !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

func TestPassesOnTheReadersError(t *testing.T) {
	broken := io.MultiReader(strings.NewReader("data: a\n\n"), iotest.ErrReader(io.ErrUnexpectedEOF))
	events, err := readEvents(t, broken, 0)
	if len(events) != 1 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("events = %#v, err = %v", events, err)
	}
}
