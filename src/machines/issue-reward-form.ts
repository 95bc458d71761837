import {
  DEFAULT_COUPON_DISCOUNT,
  DEFAULT_GIFTCARD_AMOUNT,
  type IssueRewardBody,
  rewardMessages,
} from '../../contract/rewards';

/** The Issue Reward form's values as typed (docs/product.md#validation), its rules and the body it sends. */

export interface IssueValues {
  rewardType: '' | 'GIFTCARD' | 'COUPON';
  rewardTypeCategory: '' | 'GENERAL' | 'DISCOUNTED_SUBSCRIPTION';
  issuedAmount: string;
  percentageDiscount: string;
  expiryDate: string;
  /** Base64 without the data-URL prefix. */
  promotionalImage: string;
  title: string;
  description: string;
}
export type IssueField = keyof IssueValues;
export type IssueErrors = Partial<Record<IssueField, string>>;

/** docs/product.md#constants defaults: 2,000 naira for a gift card, 10 percent for a coupon. */
export const initialIssueValues = (): IssueValues => ({
  rewardType: '',
  rewardTypeCategory: '',
  issuedAmount: String(DEFAULT_GIFTCARD_AMOUNT),
  percentageDiscount: String(DEFAULT_COUPON_DISCOUNT),
  expiryDate: '',
  promotionalImage: '',
  title: '',
  description: '',
});

const NUMBER = /^\s*\d+(\.\d+)?\s*$/;
const SIGNED_NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

function amountError(text: string, numberMessage: string, positiveMessage: string): string | undefined {
  if (!SIGNED_NUMBER.test(text)) return numberMessage;
  if (!NUMBER.test(text) || Number(text) <= 0) return positiveMessage;
  return undefined;
}

/** Every rule of docs/product.md#validation 'Issue reward'; the amount rule applies to the chosen type only. */
export function validateIssueValues(values: IssueValues): IssueErrors {
  const errors: IssueErrors = {};
  if (!values.rewardType) errors.rewardType = rewardMessages.rewardTypeRequired;
  if (!values.promotionalImage) errors.promotionalImage = rewardMessages.promotionalImageRequired;
  if (!values.title.trim()) errors.title = rewardMessages.titleRequired;
  if (!values.description.trim()) errors.description = rewardMessages.descriptionRequired;
  if (values.rewardType === 'GIFTCARD') {
    const error = amountError(
      values.issuedAmount,
      rewardMessages.issuedAmountNumber,
      rewardMessages.issuedAmountPositive,
    );
    if (error) errors.issuedAmount = error;
    else if (!/^\s*\d+(\.\d{1,2})?\s*$/.test(values.issuedAmount))
      errors.issuedAmount = 'Amount can have at most 2 decimals';
  }
  if (values.rewardType === 'COUPON') {
    const error = amountError(
      values.percentageDiscount,
      rewardMessages.percentageNumber,
      rewardMessages.percentagePositive,
    );
    if (error) errors.percentageDiscount = error;
    else if (Number(values.percentageDiscount) > 100)
      errors.percentageDiscount = rewardMessages.percentageMax;
  }
  return errors;
}

export interface IssueTarget {
  /** The customer's id; the form submits only when it exists. */
  issuedTo: number | null;
  partnerId?: number | undefined;
  byPoints?: boolean | undefined;
}

/** The body of POST /partners/rewards/issue-reward: only the amount of the chosen type is sent. */
export function toIssueRewardBody(values: IssueValues, target: IssueTarget): IssueRewardBody {
  const rewardType = values.rewardType === 'COUPON' ? 'COUPON' : 'GIFTCARD';
  return {
    rewardType,
    ...(values.rewardTypeCategory ? { rewardTypeCategory: values.rewardTypeCategory } : {}),
    ...(rewardType === 'GIFTCARD'
      ? { issuedAmount: Number(values.issuedAmount) }
      : { percentageDiscount: Number(values.percentageDiscount) }),
    ...(values.expiryDate ? { expiryDate: values.expiryDate } : {}),
    promotionalImage: values.promotionalImage,
    title: values.title.trim(),
    description: values.description.trim(),
    issuedTo: target.issuedTo ?? 0,
    ...(target.partnerId ? { partnerId: target.partnerId } : {}),
    ...(target.byPoints ? { byPoints: true } : {}),
    status: 'Active',
  };
}
