import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { AuthPage } from './AuthPage';
import { ChatPage } from './ChatPage';
import { PricingPage } from './PricingPage';

/** Signs a new person up from /auth, as a person would, and waits for the chat they land on. */
export async function signUpToChat(page: Page, baseUrl: string) {
  const id = randomUUID().slice(0, 8);
  const person = { username: `ama_${id}`, email: `ama.${id}@example.com`, password: 'adinkra-sika' };
  await new AuthPage(page).open(baseUrl);
  await new AuthPage(page).signUp(person);
  await page.waitForURL(`${baseUrl}/chat`);
  await new ChatPage(page).app().waitFor();
  return person;
}

/** Upgrades the signed-in person to Pro from the pricing page, as a person would, then opens /chat. */
export async function upgradeToPro(page: Page, baseUrl: string) {
  const pricing = new PricingPage(page);
  await pricing.open(baseUrl);
  await pricing.upgrade('pro');
  await page.waitForURL(/\/billing\/success\?reference=/);
  await page.getByTestId('billing-plan').getByText('Pro').waitFor();
  const chat = new ChatPage(page);
  await chat.open(baseUrl);
  await chat.app().waitFor();
  // The plan shows in the sidebar's user card: in sight on a wide screen, in the closed drawer on a phone.
  const phone = await chat.phoneToggle().isVisible();
  await chat
    .userCard()
    .getByText('Pro plan')
    .waitFor({ state: phone ? 'attached' : 'visible' });
}
