import styled from '@emotion/styled';
import { useState } from 'react';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { PRESET_CATEGORIES, THEME_PRESETS, presetsIn, type PresetCategory, type ThemePreset } from '../theme/presets';
import { useTheme } from '../theme/ThemeProvider';
import { exportTheme, SLIDERS, type SliderName } from '../theme/themeSettings';
import { Actions, ArrowLeft, Button, ButtonLink, Card, ICON, Muted, PageContainer } from '@kasa/ui';
import { Tabs } from '@kasa/ui/widgets';
import { COLOR_SCHEMES, type ColorScheme, themeTokens } from '@kasa/ui/tokens';
import { toast } from '../toast/toastStore';
import { useT, type MessageId } from '../i18n/useT';

const Header = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 1rem;
  margin-bottom: 1.5rem;
  h1 {
    margin: 0;
  }
`;

const Grid = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr));
  gap: var(--kasa-space, 1rem);
`;

const PresetButton = styled.button`
  width: 100%;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  padding: 1rem;
  border: 2px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font: inherit;
  text-align: left;
  cursor: pointer;
  &[aria-pressed='true'] {
    border-color: var(--kasa-primary);
  }
`;

const Swatches = styled.span`
  display: flex;
  gap: 0.25rem;
  span {
    width: 1.5rem;
    height: 1.5rem;
    border-radius: 50%;
    border: 1px solid var(--kasa-border);
  }
`;

const Filter = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin-bottom: 1rem;
`;

const Fieldset = styled.fieldset`
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  padding: 1rem;
  margin: 0 0 1rem;
  legend {
    font-weight: 700;
    padding: 0 0.25rem;
  }
`;

const Choice = styled.label`
  display: inline-flex;
  align-items: center;
  gap: 0.5rem;
  margin: 0.25rem 1rem 0.25rem 0;
  min-height: 2.75rem;
  cursor: pointer;
  input {
    width: 1.25rem;
    height: 1.25rem;
    accent-color: var(--kasa-primary);
  }
`;

const Slider = styled.div`
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 0.25rem 1rem;
  margin-bottom: 1rem;
  input {
    grid-column: 1 / -1;
    accent-color: var(--kasa-primary);
    min-height: 2rem;
  }
  output {
    font-variant-numeric: tabular-nums;
  }
`;

const PreviewCard = styled.div`
  padding: var(--kasa-space, 1rem);
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface-muted);
  display: grid;
  gap: var(--kasa-space, 1rem);
`;

function PresetCard({ preset, active, onPick }: { preset: ThemePreset; active: boolean; onPick: () => void }) {
  const { preview } = preset;
  const t = useT();
  return (
    <li>
      <PresetButton type="button" aria-pressed={active} onClick={onPick} data-testid={`preset-${preset.id}`}>
        <Swatches aria-hidden="true">
          {[preview.background, preview.surface, preview.primary, preview.accent, preview.text].map((colour, i) => (
            <span key={i} style={{ background: colour }} />
          ))}
        </Swatches>
        <strong>{preset.name}</strong>
        <span>{t(`theme.preset.${preset.id}` as MessageId)}</span>
        <small>
          {t('theme.presetKind', {
            category: t(`theme.category.${preset.category}` as MessageId),
            mode: preset.mode === 'dark' ? t('theme.dark') : t('theme.light'),
          })}
        </small>
      </PresetButton>
    </li>
  );
}

function PresetsPanel() {
  const { settings, applyPreset } = useTheme();
  const [category, setCategory] = useState<PresetCategory | 'All'>('All');
  const categories: Array<PresetCategory | 'All'> = ['All', ...PRESET_CATEGORIES];
  const t = useT();
  return (
    <>
      <Filter role="group" aria-label={t('theme.presetCategory')}>
        {categories.map((name) => (
          <Button
            key={name}
            type="button"
            compact
            variant={category === name ? 'primary' : 'secondary'}
            aria-pressed={category === name}
            onClick={() => setCategory(name)}
          >
            {t('theme.categoryCount', {
              category: t(`theme.category.${name}` as MessageId),
              count: presetsIn(name).length,
            })}
          </Button>
        ))}
      </Filter>
      <Grid aria-label={t('theme.presets')}>
        {presetsIn(category).map((preset) => (
          <PresetCard
            key={preset.id}
            preset={preset}
            active={settings.mode === preset.mode && settings.colorScheme === preset.colorScheme}
            onPick={() => {
              applyPreset(preset);
              toast({
                title: t('theme.applied'),
                description: t('theme.appliedText', { name: preset.name }),
                variant: 'success',
              });
            }}
          />
        ))}
      </Grid>
    </>
  );
}

const SCHEME_NAMES: Record<ColorScheme, string> = {
  electric: 'Electric',
  cyber: 'Cyber',
  neon: 'Neon',
  quantum: 'Quantum',
  mono: 'Mono',
};

function CustomizePanel() {
  const { settings, setMode, setColorScheme } = useTheme();
  const t = useT();
  return (
    <>
      <Fieldset>
        <legend>{t('theme.mode')}</legend>
        {(['light', 'dark'] as const).map((mode) => (
          <Choice key={mode}>
            <input
              type="radio"
              name="theme-mode"
              value={mode}
              checked={settings.mode === mode}
              onChange={() => setMode(mode)}
            />
            {mode === 'light' ? t('theme.light') : t('theme.dark')}
          </Choice>
        ))}
      </Fieldset>
      <Fieldset>
        <legend>{t('nav.theme.colourScheme')}</legend>
        {COLOR_SCHEMES.map((scheme) => (
          <Choice key={scheme}>
            <input
              type="radio"
              name="theme-scheme"
              value={scheme}
              checked={settings.colorScheme === scheme}
              onChange={() => setColorScheme(scheme)}
            />
            <Swatches aria-hidden="true">
              <span style={{ background: themeTokens(settings.mode, scheme, false)['--kasa-primary'] }} />
            </Swatches>
            {SCHEME_NAMES[scheme]}
          </Choice>
        ))}
      </Fieldset>
    </>
  );
}

function AdvancedPanel() {
  const { settings, update } = useTheme();
  const t = useT();
  return (
    <>
      <Fieldset>
        <legend>{t('theme.accessibility')}</legend>
        <Choice>
          <input
            type="checkbox"
            role="switch"
            checked={settings.highContrast}
            onChange={(event) => update({ highContrast: event.target.checked })}
          />
          {t('theme.highContrast')}
        </Choice>
        <Choice>
          <input
            type="checkbox"
            role="switch"
            checked={settings.animations}
            onChange={(event) => update({ animations: event.target.checked })}
          />
          {t('theme.animations')}
        </Choice>
      </Fieldset>
      <Fieldset>
        <legend>{t('theme.layout')}</legend>
        {(Object.keys(SLIDERS) as SliderName[]).map((name) => {
          const slider = SLIDERS[name];
          const id = `theme-slider-${name}`;
          return (
            <Slider key={name}>
              <label htmlFor={id}>{t(`theme.slider.${name}` as MessageId)}</label>
              <output htmlFor={id}>
                {settings.customSettings[name]}
                {slider.unit}
              </output>
              <input
                id={id}
                type="range"
                min={slider.min}
                max={slider.max}
                step={slider.step}
                value={settings.customSettings[name]}
                onChange={(event) =>
                  update({ customSettings: { ...settings.customSettings, [name]: Number(event.target.value) } })
                }
              />
            </Slider>
          );
        })}
      </Fieldset>
    </>
  );
}

function PreviewPanel() {
  const { settings } = useTheme();
  const t = useT();
  return (
    <PreviewCard data-testid="theme-preview">
      <strong>
        {t(settings.highContrast ? 'theme.previewTitleContrast' : 'theme.previewTitle', {
          mode: settings.mode === 'dark' ? t('theme.dark') : t('theme.light'),
          scheme: SCHEME_NAMES[settings.colorScheme],
        })}
      </strong>
      <p style={{ margin: 0 }}>
        {t('theme.previewText')} <a href="#theme-preview">{t('theme.previewLink')}</a>
      </p>
      <Actions>
        <Button type="button">{t('theme.primaryAction')}</Button>
        <Button type="button" variant="secondary">
          {t('theme.secondaryAction')}
        </Button>
      </Actions>
      <Muted>{t('theme.mutedText')}</Muted>
    </PreviewCard>
  );
}

type TabKey = 'presets' | 'customize' | 'advanced' | 'preview';

/** Route `/theme-settings` (spec section 2): presets, mode and scheme, accessibility options, and a preview. */
export default function ThemeSettingsPage() {
  const t = useT();
  useDocumentTitle(t('settings.theme'));
  const { settings, reset } = useTheme();
  const [tab, setTab] = useState<TabKey>('presets');

  const copyConfig = async () => {
    try {
      await navigator.clipboard.writeText(exportTheme(settings));
      toast({ title: t('theme.copied'), description: t('theme.copiedText'), variant: 'success' });
    } catch {
      toast({
        title: t('theme.copyFailed'),
        description: t('theme.copyFailedText'),
        variant: 'destructive',
      });
    }
  };

  const exportConfig = () => {
    const url = URL.createObjectURL(new Blob([exportTheme(settings)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'kasa-theme.json';
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
    toast({ title: t('theme.exported'), description: t('theme.exportedText'), variant: 'success' });
  };

  const resetAll = () => {
    reset();
    toast({ title: t('theme.resetDone'), description: t('theme.resetDoneText') });
  };

  return (
    <PageContainer>
      <Card aria-labelledby="theme-settings-title">
        <ButtonLink to="/settings" variant="ghost" compact>
          <ArrowLeft {...ICON} />
          {t('theme.backToSettings')}
        </ButtonLink>
        <Header>
          <div>
            <h1 id="theme-settings-title">{t('settings.theme')}</h1>
            <Muted>{t('theme.intro', { count: THEME_PRESETS.length })}</Muted>
          </div>
          <Actions>
            <Button type="button" variant="secondary" compact onClick={copyConfig}>
              {t('theme.copy')}
            </Button>
            <Button type="button" variant="secondary" compact onClick={exportConfig}>
              {t('theme.export')}
            </Button>
            <Button type="button" variant="danger" compact onClick={resetAll}>
              {t('theme.reset')}
            </Button>
          </Actions>
        </Header>
        <Tabs<TabKey>
          label={t('settings.theme')}
          selected={tab}
          onSelect={setTab}
          items={[
            { key: 'presets', label: t('theme.tab.presets'), panel: <PresetsPanel /> },
            { key: 'customize', label: t('theme.tab.customize'), panel: <CustomizePanel /> },
            { key: 'advanced', label: t('theme.tab.advanced'), panel: <AdvancedPanel /> },
            { key: 'preview', label: t('theme.tab.preview'), panel: <PreviewPanel /> },
          ]}
        />
      </Card>
    </PageContainer>
  );
}
