import styled from '@emotion/styled';
import { LOCALES, type LocaleInfo } from '@kasa/i18n';
import { Check, ICON, Languages, VisuallyHidden } from '@kasa/ui';
import { MenuButton, MenuItem } from '../ui/MenuButton';
import { useLanguage } from './LanguageProvider';
import { useT } from './useT';

const Names = styled.span`
  display: flex;
  flex-direction: column;
  flex: 1;
  text-align: start;
`;

const Status = styled.span`
  color: var(--kasa-muted);
  font-size: 0.8125rem;
  font-weight: 400;
`;

const Code = styled.span`
  font-size: 0.75rem;
  font-weight: 700;
  text-transform: uppercase;
`;

/**
 * One language as the pickers list it: its name in itself (whatever the current language), and how far its
 * catalogue can be trusted, so that nobody takes a draft for a reviewed translation.
 */
function LanguageChoice({ info }: { info: LocaleInfo }) {
  const t = useT();
  const status =
    info.status === 'source'
      ? t('language.status.source')
      : info.status === 'reviewed'
        ? t('language.status.reviewed')
        : t('language.status.draft');
  return (
    <Names>
      <span lang={info.locale} dir={info.dir}>
        {info.nativeName}
      </span>
      <Status>{status}</Status>
    </Names>
  );
}

/** The navigation bar's language menu: every interface language by its own name, with its review status. */
export function LanguageMenu() {
  const { locale, setLocale } = useLanguage();
  const t = useT();
  return (
    <div data-tour="nav-language">
      <MenuButton
        // The name holds the visible code, so that what people see is what voice control hears (WCAG 2.5.3).
        label={t('language.menuCurrent', { code: locale })}
        testId="language-picker"
        trigger={
          <>
            <Languages {...ICON} size={20} />
            <Code>{locale}</Code>
          </>
        }
      >
        {(close) => (
          <>
            <h2>{t('language.menu')}</h2>
            {LOCALES.map((info) => (
              <MenuItem
                key={info.locale}
                type="button"
                aria-pressed={info.locale === locale}
                data-locale={info.locale}
                onClick={() => {
                  setLocale(info.locale);
                  close();
                }}
              >
                <LanguageChoice info={info} />
                {info.locale === locale ? <Check {...ICON} /> : null}
              </MenuItem>
            ))}
          </>
        )}
      </MenuButton>
    </div>
  );
}

const Choices = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
  gap: 0.25rem;
`;

const Choice = styled.label`
  display: flex;
  align-items: center;
  gap: 0.5rem;
  padding: 0.375rem 0.5rem;
  border-radius: var(--kasa-radius);
  cursor: pointer;
  &:hover,
  &:has(input:checked) {
    background: var(--kasa-surface-muted);
  }
`;

/** The settings page's language choice: the same languages and statuses as radio buttons. */
export function LanguageSettings() {
  const { locale, setLocale } = useLanguage();
  const t = useT();
  return (
    <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
      <VisuallyHidden as="legend">{t('language.menu')}</VisuallyHidden>
      <Choices data-testid="language-settings">
        {LOCALES.map((info) => (
          <Choice key={info.locale}>
            <input
              type="radio"
              name="interface-language"
              value={info.locale}
              checked={info.locale === locale}
              onChange={() => setLocale(info.locale)}
            />
            <LanguageChoice info={info} />
          </Choice>
        ))}
      </Choices>
    </fieldset>
  );
}
