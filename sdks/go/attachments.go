package kasa

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// AttachmentsService uploads, reads and deletes the images (PNG, JPEG, WebP, GIF; up to 10 MB) and documents (PDF,
// DOCX, plain text, markdown; up to 20 MB) sent with chat messages: upload one, then pass its id in
// MessageParams.AttachmentIDs. Pro and Enterprise: a Free account gets a *PermissionDeniedError naming Pro. The API
// decides what a file is from its bytes: another type is a *BadRequestError matching ErrUnsupportedMediaType (415), a
// file over its kind's limit one matching ErrPayloadTooLarge (413), and an account that keeps as many as it may (200
// files, 500 MB) a *ConflictError. Only their owner can read or delete them: anyone else gets a *NotFoundError.
type AttachmentsService struct{ client *Client }

// AttachmentUploadParams describe an upload.
type AttachmentUploadParams struct {
	// Name is the file's name (required, up to 255 characters), e.g. "photo.png".
	Name string
	// ContentType is the declared type, a hint only ("": application/octet-stream); the bytes decide.
	ContentType string
	// IdempotencyKey ties retries of this call together (one is made when empty, unless turned off).
	IdempotencyKey string
}

func attachmentPath(attachmentID string) string {
	return "/api/chat/attachments/" + escape(attachmentID)
}

// Upload stores a file and gives the attachment (POST /api/chat/attachments?name=, the bytes as the body; answered
// 201). data is sent as it is, the same on every retry.
func (s *AttachmentsService) Upload(ctx context.Context, data []byte, params AttachmentUploadParams) (*Attachment, error) {
	if strings.TrimSpace(params.Name) == "" {
		return nil, errors.New("kasa: Attachments.Upload needs the file name (AttachmentUploadParams.Name)")
	}
	if data == nil {
		data = []byte{}
	}
	contentType := params.ContentType
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	req := &request{
		method:         http.MethodPost,
		path:           "/api/chat/attachments",
		query:          url.Values{"name": {params.Name}},
		rawBody:        data,
		contentType:    contentType,
		creates:        true,
		idempotencyKey: params.IdempotencyKey,
	}
	var out Attachment
	if err := s.client.call(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get fetches a stored file (GET /api/chat/attachments/:id): its bytes, media type and name.
func (s *AttachmentsService) Get(ctx context.Context, attachmentID string) (*AttachmentFile, error) {
	return s.file(ctx, attachmentPath(attachmentID))
}

// Thumbnail fetches an image's small WebP preview (GET /api/chat/attachments/:id/thumbnail); a document has none
// (*NotFoundError).
func (s *AttachmentsService) Thumbnail(ctx context.Context, attachmentID string) (*AttachmentFile, error) {
	return s.file(ctx, attachmentPath(attachmentID)+"/thumbnail")
}

// Delete deletes a stored file and frees its place in the account's allowance (DELETE /api/chat/attachments/:id).
func (s *AttachmentsService) Delete(ctx context.Context, attachmentID string) error {
	return s.client.call(ctx, &request{method: http.MethodDelete, path: attachmentPath(attachmentID)}, nil)
}

func (s *AttachmentsService) file(ctx context.Context, path string) (*AttachmentFile, error) {
	resp, err := s.client.exchange(ctx, &request{method: http.MethodGet, path: path, accept: "*/*"}, true)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return &AttachmentFile{Data: data, ContentType: strings.ToLower(mediaType(resp.Header)), Name: fileName(resp.Header)}, nil
}

// fileName is the file name of the Content-Disposition header (RFC 2231's exact filename* when given); "" without
// one.
func fileName(header http.Header) string {
	_, params, err := mime.ParseMediaType(header.Get("Content-Disposition"))
	if err != nil {
		return ""
	}
	return params["filename"]
}
