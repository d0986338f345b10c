package kasa_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"strings"
	"testing"

	kasa "github.com/kasa-ai/kasa-go"
)

// markdownNotes is the document the attachment tests upload.
var markdownNotes = []byte("# Bonwire\n\nKente is woven here.")

// tinyPNG is a valid PNG of 3 × 2 pixels, the colours of kente.
func tinyPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	kente := []color.NRGBA{{0xF5, 0xB8, 0x00, 0xFF}, {0x00, 0x7A, 0x3D, 0xFF}, {0xCE, 0x11, 0x26, 0xFF}}
	for x, c := range kente {
		img.SetNRGBA(x, 0, c)
		img.SetNRGBA(x, 1, c)
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func isWebP(data []byte) bool {
	return len(data) > 12 && bytes.Equal(data[:4], []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WEBP"))
}

func TestPlatformUploadsAnImageAndADocumentSendsThemWithAMessageReadsThemBackAndDeletesThem(t *testing.T) {
	p := onPlatform(t)
	pro := p.pro()
	pixels := tinyPNG(t)
	photo := must(pro.Attachments.Upload(p.ctx(), pixels, kasa.AttachmentUploadParams{Name: "kente.png", ContentType: "image/png"}))(t)
	if len(photo.ID) != 22 || photo.Kind != kasa.AttachmentImage || photo.Name != "kente.png" || photo.MediaType != "image/png" ||
		photo.Size != int64(len(pixels)) || !photo.HasThumbnail || photo.Pages != nil || photo.Characters != nil || photo.CreatedAt.IsZero() {
		t.Fatalf("photo %+v", photo)
	}
	// The declared type is left to the bytes and the name: markdown.
	notes := must(pro.Attachments.Upload(p.ctx(), markdownNotes, kasa.AttachmentUploadParams{Name: "notes.md"}))(t)
	if len(notes.ID) != 22 || notes.Kind != kasa.AttachmentDocument || notes.Name != "notes.md" || notes.MediaType != "text/markdown" ||
		notes.Size != int64(len(markdownNotes)) || notes.HasThumbnail || notes.Pages == nil || notes.Characters == nil || *notes.Characters == 0 {
		t.Fatalf("notes %+v", notes)
	}

	session := must(pro.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Files"}))(t)
	reply := must(pro.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{
		Content: "What do these show?", AttachmentIDs: []string{photo.ID, notes.ID},
	}))(t)
	if reply.Status != kasa.StatusComplete || reply.UserMessageID == "" {
		t.Fatalf("reply %+v", reply)
	}
	want := []kasa.MessageAttachment{
		{ID: photo.ID, Kind: kasa.AttachmentImage, Name: "kente.png", MediaType: "image/png", Size: int64(len(pixels))},
		{ID: notes.ID, Kind: kasa.AttachmentDocument, Name: "notes.md", MediaType: "text/markdown", Size: int64(len(markdownNotes))},
	}
	var question *kasa.StoredMessage
	for _, message := range must(pro.Chat.Messages.List(p.ctx(), session.ID, kasa.PageParams{}))(t).Messages {
		if message.ID == reply.UserMessageID {
			question = &message
		}
	}
	if question == nil || question.Role != "user" || !reflect.DeepEqual(question.Attachments, want) {
		t.Fatalf("the stored question %+v", question)
	}

	picture := must(pro.Attachments.Get(p.ctx(), photo.ID))(t)
	if !bytes.Equal(picture.Data, pixels) || picture.ContentType != "image/png" || picture.Name != "kente.png" {
		t.Fatalf("%d bytes of %s named %q", len(picture.Data), picture.ContentType, picture.Name)
	}
	thumbnail := must(pro.Attachments.Thumbnail(p.ctx(), photo.ID))(t)
	if !isWebP(thumbnail.Data) || thumbnail.ContentType != "image/webp" || thumbnail.Name != "kente.png.webp" {
		t.Fatalf("thumbnail: %d bytes of %s named %q", len(thumbnail.Data), thumbnail.ContentType, thumbnail.Name)
	}
	file := must(pro.Attachments.Get(p.ctx(), notes.ID))(t)
	if !bytes.Equal(file.Data, markdownNotes) || file.ContentType != "text/markdown" || file.Name != "notes.md" {
		t.Fatalf("%q as %s named %q", file.Data, file.ContentType, file.Name)
	}
	// A document has no thumbnail.
	_, err := pro.Attachments.Thumbnail(p.ctx(), notes.ID)
	expectError[*kasa.NotFoundError](t, err)

	for _, id := range []string{photo.ID, notes.ID} {
		if err := pro.Attachments.Delete(p.ctx(), id); err != nil {
			t.Fatal(err)
		}
		_, err = pro.Attachments.Get(p.ctx(), id)
		if gone := expectError[*kasa.NotFoundError](t, err); gone.Status != 404 || gone.Code != "not_found" {
			t.Fatalf("%+v", gone.APIError)
		}
		_, err = pro.Attachments.Thumbnail(p.ctx(), id)
		expectError[*kasa.NotFoundError](t, err)
		expectError[*kasa.NotFoundError](t, pro.Attachments.Delete(p.ctx(), id))
	}
}

func TestPlatformRefusesAFreeAccountAnUnknownTypeAndSomeoneElsesAttachment(t *testing.T) {
	p := onPlatform(t)
	free, pro := p.signedIn(), p.pro()
	_, err := free.Attachments.Upload(p.ctx(), markdownNotes, kasa.AttachmentUploadParams{Name: "notes.md"})
	denied := expectError[*kasa.PermissionDeniedError](t, err)
	if denied.Status != 403 || denied.Code != "forbidden" || !strings.Contains(denied.Message, "Pro") || !errors.Is(err, kasa.ErrPermissionDenied) {
		t.Fatalf("%+v", denied.APIError)
	}

	_, err = pro.Attachments.Upload(p.ctx(), []byte{0x00, 0x13, 0x37, 0x00, 0x42}, kasa.AttachmentUploadParams{Name: "blob.bin"})
	unknown := expectError[*kasa.BadRequestError](t, err)
	if unknown.Status != 415 || unknown.Code != "unsupported_media_type" || !errors.Is(err, kasa.ErrUnsupportedMediaType) {
		t.Fatalf("%+v", unknown.APIError)
	}

	photo := must(pro.Attachments.Upload(p.ctx(), tinyPNG(t), kasa.AttachmentUploadParams{Name: "kente.png"}))(t)
	// Someone else's attachment answers like one that does not exist, whatever the call.
	stranger := p.pro()
	_, err = stranger.Attachments.Get(p.ctx(), photo.ID)
	if notFound := expectError[*kasa.NotFoundError](t, err); notFound.Status != 404 || notFound.Code != "not_found" {
		t.Fatalf("%+v", notFound.APIError)
	}
	_, err = stranger.Attachments.Thumbnail(p.ctx(), photo.ID)
	expectError[*kasa.NotFoundError](t, err)
	expectError[*kasa.NotFoundError](t, stranger.Attachments.Delete(p.ctx(), photo.ID))
	session := must(stranger.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Not mine"}))(t)
	_, err = stranger.Chat.Messages.Send(p.ctx(), session.ID, kasa.MessageParams{Content: "And this?", AttachmentIDs: []string{photo.ID}})
	expectError[*kasa.NotFoundError](t, err)
	// Nor can a Free account send one with a message.
	mine := must(free.Chat.Sessions.Create(p.ctx(), kasa.SessionCreateParams{PersonaID: "kasa", Title: "Free"}))(t)
	_, err = free.Chat.Messages.Send(p.ctx(), mine.ID, kasa.MessageParams{Content: "And this?", AttachmentIDs: []string{photo.ID}})
	expectError[*kasa.PermissionDeniedError](t, err)
	// The attempts changed nothing: the owner still reads it.
	if still := must(pro.Attachments.Get(p.ctx(), photo.ID))(t); still.ContentType != "image/png" {
		t.Fatalf("read back %s", still.ContentType)
	}
}
