import { ORG_ROLES } from '@app/contract';
import { mailDate, type MailLanguage } from './language.ts';

/**
 * The words of every mail, per language. Values that come from elsewhere (the application's name, a
 * code, an already quoted and bounded name) are passed in as they are; templates.ts escapes them for
 * HTML and keeps names out of subjects. French follows French typography: a no-break space before
 * `:` and inside « guillemets », and the recipient is addressed as « vous ».
 */
export interface MailWords {
  code: {
    subject(code: string, appName: string, purpose: CodePurpose): string;
    /** The line before the code, ending with its colon. */
    intro(appName: string, purpose: CodePurpose): string;
    expiry(minutes: number): string;
  };
  link: {
    subject(appName: string, purpose: LinkPurpose): string;
    intro(appName: string, purpose: LinkPurpose): string;
    button(purpose: LinkPurpose): string;
    expiry(minutes: number, sameBrowser: boolean): string;
  };
  /** Under a button, before the same link as text. */
  orOpen: string;
  /** After a label that introduces a line below it (`Accept the invitation:`). */
  colon: string;
  invitation: {
    subject(appName: string): string;
    /** `inviter` and `organization` already made safe (mailSafeName). */
    intro(input: { inviter: string; organization: string; appName: string; role: string }): string;
    accept: string;
    expiry(expiresAt: Date): string;
    /** A role's name, by its key; unknown keys keep the name the instance gives them. */
    roleName(key: string, fallback: string): string;
  };
  /** An invitation to the application itself (the Backend API's `invitations`), not to an organisation. */
  applicationInvitation: {
    subject(appName: string): string;
    intro(appName: string): string;
    signUp: string;
    expiry(expiresAt: Date): string;
  };
  waitlist: {
    subject(appName: string): string;
    intro(appName: string): string;
    signUp: string;
    expiry(expiresAt: Date): string;
  };
}

export type CodePurpose = 'sign_up' | 'sign_in' | 'reset_password';
export type LinkPurpose = 'sign_in' | 'sign_up';

/** No-break space: before `:` and inside guillemets in French. */
const NBSP = '\u00a0';
const quoteFr = (name: string) => `«${NBSP}${name}${NBSP}»`;
/** « que » elides before a vowel or a mute h: « en tant qu'administrateur », « en tant que membre ». */
const asFr = (role: string) =>
  /^[aeiouyhàâäéèêëîïôöùûüœæ]/i.test(role) ? `en tant qu'${role}` : `en tant que ${role}`;
const minutesEn = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;
const minutesFr = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

const ROLE_NAMES_FR: Record<string, string> = {
  [ORG_ROLES.admin]: 'administrateur',
  [ORG_ROLES.member]: 'membre',
  [ORG_ROLES.vciso]: 'RSSI virtuel',
};

const en: MailWords = {
  code: {
    subject: (code, appName, purpose) =>
      purpose === 'reset_password'
        ? `${code} is your ${appName} password reset code`
        : `${code} is your ${appName} verification code`,
    intro: (appName, purpose) => {
      const action =
        purpose === 'sign_up'
          ? 'verify your email address'
          : purpose === 'reset_password'
            ? 'reset your password'
            : 'sign in';
      return `Enter this code to ${action} on ${appName}:`;
    },
    expiry: (minutes) =>
      `The code expires in ${minutesEn(minutes)}. If you did not request it, you can ignore this email.`,
  },
  link: {
    subject: (appName, purpose) =>
      purpose === 'sign_up' ? `Verify your email address for ${appName}` : `Sign in to ${appName}`,
    intro: (appName, purpose) =>
      `Open this link to ${purpose === 'sign_up' ? 'verify your email address' : 'sign in'} on ${appName}:`,
    button: (purpose) => (purpose === 'sign_up' ? 'Verify email address' : 'Sign in'),
    expiry: (minutes, sameBrowser) =>
      `The link works once${sameBrowser ? ', in the browser where you asked for it,' : ''} and expires in ${minutesEn(minutes)}. If you did not request it, you can ignore this email.`,
  },
  orOpen: 'Or open this link:',
  colon: ':',
  invitation: {
    subject: (appName) => `You have been invited to an organization on ${appName}`,
    intro: ({ inviter, organization, appName, role }) =>
      `${inviter ? `“${inviter}” has invited you` : 'You have been invited'} to join the organization “${organization}” on ${appName} as ${role}.`,
    accept: 'Accept the invitation',
    expiry: (expiresAt) =>
      `The link works once and expires on ${mailDate(expiresAt, 'en')}. If you did not expect this invitation, you can ignore this email.`,
    roleName: (_key, fallback) => fallback,
  },
  applicationInvitation: {
    subject: (appName) => `You're invited to join ${appName}`,
    intro: (appName) => `You have been invited to create an account on ${appName}.`,
    signUp: 'Accept the invitation',
    expiry: (expiresAt) =>
      `The link works once and expires on ${mailDate(expiresAt, 'en')}. If you did not expect this invitation, you can ignore this email.`,
  },
  waitlist: {
    subject: (appName) => `You're invited to join ${appName}`,
    intro: (appName) => `Your spot on the ${appName} waitlist is ready: you can now create your account.`,
    signUp: 'Sign up',
    expiry: (expiresAt) =>
      `The link works once and expires on ${mailDate(expiresAt, 'en')}. If you did not join this waitlist, you can ignore this email.`,
  },
};

const fr: MailWords = {
  code: {
    subject: (code, appName, purpose) =>
      purpose === 'reset_password'
        ? `${code} est votre code de réinitialisation du mot de passe ${appName}`
        : `${code} est votre code de vérification ${appName}`,
    intro: (appName, purpose) => {
      const action =
        purpose === 'sign_up'
          ? 'vérifier votre adresse e-mail'
          : purpose === 'reset_password'
            ? 'réinitialiser votre mot de passe'
            : 'vous connecter';
      return `Saisissez ce code pour ${action} sur ${appName}${NBSP}:`;
    },
    expiry: (minutes) =>
      `Le code expire dans ${minutesFr(minutes)}. Si vous ne l'avez pas demandé, vous pouvez ignorer cet e-mail.`,
  },
  link: {
    subject: (appName, purpose) =>
      purpose === 'sign_up' ? `Vérifiez votre adresse e-mail pour ${appName}` : `Connexion à ${appName}`,
    intro: (appName, purpose) =>
      `Ouvrez ce lien pour ${purpose === 'sign_up' ? 'vérifier votre adresse e-mail' : 'vous connecter'} sur ${appName}${NBSP}:`,
    button: (purpose) => (purpose === 'sign_up' ? "Vérifier l'adresse e-mail" : 'Se connecter'),
    expiry: (minutes, sameBrowser) =>
      `Le lien ne fonctionne qu'une fois${sameBrowser ? ", dans le navigateur où vous l'avez demandé," : ''} et expire dans ${minutesFr(minutes)}. Si vous ne l'avez pas demandé, vous pouvez ignorer cet e-mail.`,
  },
  orOpen: `Ou ouvrez ce lien${NBSP}:`,
  colon: `${NBSP}:`,
  invitation: {
    subject: (appName) => `Invitation à rejoindre une organisation sur ${appName}`,
    intro: ({ inviter, organization, appName, role }) =>
      `${inviter ? `${quoteFr(inviter)} vous invite` : 'Vous avez reçu une invitation'} à rejoindre l'organisation ${quoteFr(organization)} sur ${appName} ${asFr(role)}.`,
    accept: "Accepter l'invitation",
    expiry: (expiresAt) =>
      `Le lien ne fonctionne qu'une fois et expire le ${mailDate(expiresAt, 'fr')}. Si vous n'attendiez pas cette invitation, vous pouvez ignorer cet e-mail.`,
    roleName: (key, fallback) => ROLE_NAMES_FR[key] ?? fallback,
  },
  applicationInvitation: {
    subject: (appName) => `Votre invitation à rejoindre ${appName}`,
    intro: (appName) => `Vous êtes invité(e) à créer votre compte sur ${appName}.`,
    signUp: "Accepter l'invitation",
    expiry: (expiresAt) =>
      `Le lien ne fonctionne qu'une fois et expire le ${mailDate(expiresAt, 'fr')}. Si vous n'attendiez pas cette invitation, vous pouvez ignorer cet e-mail.`,
  },
  waitlist: {
    subject: (appName) => `Votre invitation à rejoindre ${appName}`,
    intro: (appName) =>
      `Votre place sur la liste d'attente de ${appName} est prête${NBSP}: vous pouvez maintenant créer votre compte.`,
    signUp: 'Créer mon compte',
    expiry: (expiresAt) =>
      `Le lien ne fonctionne qu'une fois et expire le ${mailDate(expiresAt, 'fr')}. Si vous n'avez pas demandé à rejoindre cette liste d'attente, vous pouvez ignorer cet e-mail.`,
  },
};

export const MAIL_WORDS: Record<MailLanguage, MailWords> = { fr, en };
