import type { Locator, Page } from 'playwright-core';

/** A message's versions in the chat: Edit and its inline editor, Regenerate, and the ‹ n/m › arrows. */
export class MessageVersions {
  constructor(private readonly page: Page) {}

  /** The `index`-th message of the person (0-based; -1 for the last). */
  userMessage(index = -1): Locator {
    const all = this.page.getByTestId('message-user');
    return index < 0 ? all.last() : all.nth(index);
  }

  reply(index = -1): Locator {
    const all = this.page.getByTestId('message-assistant');
    return index < 0 ? all.last() : all.nth(index);
  }

  async textOf(message: Locator): Promise<string> {
    return (await message.getByTestId('message-content').innerText()).trim();
  }

  editButton(message: Locator): Locator {
    return message.getByRole('button', { name: 'Edit', exact: true });
  }

  /** Edit, found in any language. */
  editAction(message: Locator): Locator {
    return message.getByTestId('edit-message');
  }

  /** The open editor's buttons (Cancel and Save), found in any language. */
  editorActions(message: Locator): Locator {
    return message.getByTestId('message-editor').getByRole('button');
  }

  editor(message: Locator): Locator {
    return message.getByRole('form', { name: 'Edit your message' });
  }

  editField(message: Locator): Locator {
    return this.editor(message).getByRole('textbox', { name: 'Edit your message' });
  }

  /** The ‹ n/m › group; its accessible name says "Version n of m". */
  versions(message: Locator): Locator {
    return message.getByRole('group', { name: /^Version \d+ of \d+$/ });
  }

  /** "n/m" as the arrows show it, or null when the message has one version. */
  async counter(message: Locator): Promise<string | null> {
    if ((await this.versions(message).count()) === 0) return null;
    return (await this.versions(message).getByTestId('version-counter').innerText()).trim();
  }

  previous(message: Locator): Locator {
    return this.versions(message).getByRole('button', { name: 'Previous version' });
  }

  next(message: Locator): Locator {
    return this.versions(message).getByRole('button', { name: 'Next version' });
  }

  regenerate(message: Locator): Locator {
    return message.getByRole('button', { name: 'Regenerate' });
  }

  /** The accessible name of the focused element, and the group (if any) it sits in. */
  focused() {
    return this.page.evaluate(() => {
      const active = document.activeElement;
      return {
        label: active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? '',
        group: active?.closest('[role="group"]')?.getAttribute('aria-label') ?? null,
        tag: active?.tagName.toLowerCase() ?? '',
      };
    });
  }
}
